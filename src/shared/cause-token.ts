import { isCodexTransportError, type CodexTransportErrorCode } from '../transport/types.js';
import { THROWN_CAUSE_TOKENS, type ThrownCauseToken } from './tokens.js';

/** A bounded token naming why a stream or call failed: a transport code or a thrown-cause token. */
export type CauseToken = ThrownCauseToken | CodexTransportErrorCode;

/**
 * Reduces any thrown value to a bounded token (§10.3). Only the error's `code`/`name` are
 * read, never its message.
 */
export function causeTokenOf(value: unknown): CauseToken {
  if (isCodexTransportError(value)) return value.code;
  if (typeof value !== 'object' || value === null) return 'unknown';
  const code: unknown = Reflect.get(value, 'code');
  if (typeof code === 'string' && code !== 'unknown' && isThrownCauseToken(code)) return code;
  if (Reflect.get(value, 'name') === 'AbortError') return 'ABORT_ERR';
  return 'unknown';
}

function isThrownCauseToken(code: string): code is ThrownCauseToken {
  return (THROWN_CAUSE_TOKENS as readonly string[]).includes(code);
}
