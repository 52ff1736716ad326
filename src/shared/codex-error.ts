/**
 * The adapter's typed error values. `codexError` is the only way source code builds an
 * `AgentError`: its `providerCode` is the published codes' union, so a typo fails to compile.
 * `CodexTransportError` lives here, below the transport, so the cause-token reduction can
 * recognise it without importing the transport.
 */
import {
  agentError,
  classBrand,
  fixedField,
  fixField,
  ProviderRejection,
  type AgentError,
  type AgentErrorCode,
  type JsonObject,
} from '@relvo-labs/agent-provider';
import type { ProviderCode } from '../protocol/provider-codes.js';

/** Why the transport failed: a bounded token, never upstream text. */
// prettier-ignore
const CODEX_TRANSPORT_ERROR_CODES = [
  'spawn_failed', 'stdout_error', 'child_did_not_exit', 'process_group_did_not_exit',
  'group_cleanup_unverified',
] as const;
export type CodexTransportErrorCode = (typeof CODEX_TRANSPORT_ERROR_CODES)[number];

/** The package the adapter's error brands are keyed by (`Symbol.for('<package>/<Class>')`). */
export const CODEX_PACKAGE = '@relvo-labs/agent-provider-codex';
const TRANSPORT_ERROR = classBrand(CODEX_PACKAGE, 'CodexTransportError');

export interface CodexErrorOptions {
  readonly providerCode?: ProviderCode;
  readonly details?: JsonObject;
}

export function codexError(
  code: AgentErrorCode,
  message: string,
  options: CodexErrorOptions = {},
): AgentError {
  return agentError(code, message, {
    ...(options.providerCode !== undefined ? { providerCode: options.providerCode } : {}),
    ...(options.details !== undefined ? { details: options.details } : {}),
  });
}

/** A `ProviderRejection` of a `codexError`; `errorOptions` carries the thrown cause. */
export function codexRejection(
  code: AgentErrorCode,
  message: string,
  options: CodexErrorOptions = {},
  errorOptions?: { readonly cause?: unknown },
): ProviderRejection {
  return new ProviderRejection(codexError(code, message, options), errorOptions);
}

/** A typed transport failure. `message` is fixed per code and never carries child output. */
export class CodexTransportError extends Error {
  override readonly name = 'CodexTransportError';
  declare readonly code: CodexTransportErrorCode;
  /** Bounded detail tokens (cause token, discovery-doubt token); never paths or output. */
  declare readonly detail: Readonly<Record<string, string | number | boolean>>;

  // the brand, and `instanceof` answered by it (so by any copy of this package)
  static {
    TRANSPORT_ERROR.mark(this, isCodexTransportError);
  }

  constructor(
    code: CodexTransportErrorCode,
    detail: Readonly<Record<string, string | number | boolean>> = {},
    options?: { cause?: unknown },
  ) {
    super(`codex transport: ${code}`, options);
    fixField(this, 'code', code);
    fixField(this, 'detail', Object.freeze({ ...detail }));
  }
}

/** By brand, from any copy of this package: a known code and frozen scalar details. Never throws. */
export function isCodexTransportError(value: unknown): value is CodexTransportError {
  return TRANSPORT_ERROR.recognises(value, (branded) => {
    const detail = fixedField(branded, 'detail');
    return (
      (CODEX_TRANSPORT_ERROR_CODES as readonly unknown[]).includes(fixedField(branded, 'code')) &&
      typeof detail === 'object' &&
      detail !== null &&
      Object.isFrozen(detail) &&
      Object.values(detail).every((v) => ['string', 'number', 'boolean'].includes(typeof v))
    );
  });
}
