import { isCodexTransportError, type CodexTransportErrorCode } from './codex-error.js';

/** docs/behaviour.md §10.3: tokens for a thrown cause; anything unrecognised is `unknown`. */
// prettier-ignore
const THROWN_CAUSE_TOKENS = [
  'ABORT_ERR', 'EACCES', 'ECONNRESET', 'ENOENT', 'ENOTDIR', 'EPERM', 'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE', 'ETIMEDOUT', 'unknown',
] as const;
export type ThrownCauseToken = (typeof THROWN_CAUSE_TOKENS)[number];

/** A bounded token naming why a stream or call failed: a transport code or a thrown-cause token. */
export type CauseToken = ThrownCauseToken | CodexTransportErrorCode;

const KNOWN: ReadonlySet<string> = new Set(THROWN_CAUSE_TOKENS.filter((t) => t !== 'unknown'));

function field(value: object, key: 'code' | 'name'): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    // a throwing getter must not escape a diagnostics path
    return undefined;
  }
}

/**
 * Reduces any thrown value to a bounded token (docs/behaviour.md §10.3). Only the error's `code`/`name` are
 * read, never its message, path or errno text.
 */
export function causeTokenOf(value: unknown): CauseToken {
  if (typeof value !== 'object' || value === null) return 'unknown';
  try {
    // instanceof reads the prototype, which a (revoked) proxy may refuse
    if (isCodexTransportError(value)) return value.code;
  } catch {
    return 'unknown';
  }
  const code = field(value, 'code');
  if (typeof code === 'string' && KNOWN.has(code)) return code as ThrownCauseToken;
  if (field(value, 'name') === 'AbortError') return 'ABORT_ERR';
  return 'unknown';
}

/** The thrown cause a `spawn_failed` transport error carries in its detail, when it is known. */
export function spawnCauseOf(value: unknown): ThrownCauseToken | undefined {
  try {
    if (!isCodexTransportError(value) || value.code !== 'spawn_failed') return undefined;
    const cause = value.detail['cause'];
    return typeof cause === 'string' && (KNOWN.has(cause) || cause === 'unknown')
      ? (cause as ThrownCauseToken)
      : undefined;
  } catch {
    return undefined;
  }
}
