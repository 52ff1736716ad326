/**
 * The adapter's typed error values. `codexError` is the only way source code builds an
 * `AgentError`: its `providerCode` is the vocabulary's union, so a typo fails to compile.
 * `CodexTransportError` lives here, below the transport, so the cause-token reduction can
 * recognise it without importing the transport.
 */
import {
  agentError,
  ProviderRejection,
  type AgentError,
  type AgentErrorCode,
  type JsonObject,
} from '@relvo-labs/agent-provider';
import type { CodexTransportErrorCode, ProviderCode } from '../protocol/vocabulary.js';

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
  readonly code: CodexTransportErrorCode;
  /** Bounded detail tokens (cause token, discovery-doubt token); never paths or output. */
  readonly detail: Readonly<Record<string, string | number | boolean>>;

  constructor(
    code: CodexTransportErrorCode,
    detail: Readonly<Record<string, string | number | boolean>> = {},
    options?: { cause?: unknown },
  ) {
    super(`codex transport: ${code}`, options);
    this.code = code;
    this.detail = detail;
  }
}

export function isCodexTransportError(value: unknown): value is CodexTransportError {
  return value instanceof CodexTransportError;
}
