import { captureJson, type JsonObject } from './json.js';
import {
  AGENT_ERROR_CODES,
  AGENT_ERROR_MESSAGE_MAX,
  PROVIDER_CODE_MAX,
  RETRYABLE_AGENT_ERROR_CODES,
  agentErrorSchema,
  type AgentError,
  type AgentErrorCode,
} from './schemas/error.js';

export interface AgentErrorOptions {
  details?: JsonObject;
  providerCode?: string;
}

export function isAgentErrorCode(value: unknown): value is AgentErrorCode {
  return typeof value === 'string' && (AGENT_ERROR_CODES as readonly string[]).includes(value);
}

export function isRetryableCode(code: AgentErrorCode): boolean {
  return (RETRYABLE_AGENT_ERROR_CODES as readonly string[]).includes(code);
}

/**
 * Builds a frozen AgentError. Total by design (an error path must not throw):
 * the message and providerCode are clamped to their bounds, and details that
 * fail the JSON capture are left out rather than recorded half-way.
 */
export function agentError(
  code: AgentErrorCode,
  message: string,
  opts: AgentErrorOptions = {},
): AgentError {
  const text = message.length > 0 ? message.slice(0, AGENT_ERROR_MESSAGE_MAX) : code;
  const error: AgentError = { code, message: text, retryable: isRetryableCode(code) };
  if (opts.details !== undefined) {
    const captured = captureJson(opts.details);
    if (
      captured.ok &&
      typeof captured.value === 'object' &&
      captured.value !== null &&
      !Array.isArray(captured.value)
    ) {
      error.details = captured.value;
    }
  }
  if (opts.providerCode !== undefined)
    error.providerCode = opts.providerCode.slice(0, PROVIDER_CODE_MAX);
  return Object.freeze(error);
}

/** The in-process throwable form of an AgentError. */
export class AgentRuntimeError extends Error {
  readonly error: AgentError;
  readonly code: AgentErrorCode;

  constructor(error: AgentError, options?: { cause?: unknown });
  constructor(
    code: AgentErrorCode,
    message: string,
    opts?: AgentErrorOptions & { cause?: unknown },
  );
  constructor(
    errorOrCode: AgentError | AgentErrorCode,
    messageOrOptions?: string | { cause?: unknown },
    opts?: AgentErrorOptions & { cause?: unknown },
  ) {
    const error =
      typeof errorOrCode === 'string'
        ? agentError(
            errorOrCode,
            typeof messageOrOptions === 'string' ? messageOrOptions : errorOrCode,
            opts,
          )
        : Object.freeze({ ...errorOrCode });
    const cause = typeof messageOrOptions === 'object' ? messageOrOptions.cause : opts?.cause;
    super(error.message, cause === undefined ? undefined : { cause });
    this.name = 'AgentRuntimeError';
    this.error = error;
    this.code = error.code;
  }

  toJSON(): AgentError {
    return this.error;
  }
}

/**
 * A definite refusal: the provider guarantees the effect was not applied (docs/spi.md §15).
 * Anything else thrown by a provider is an unknown outcome.
 */
export class ProviderRejection extends Error {
  readonly agentError: AgentError;

  constructor(agentError: AgentError, options?: { cause?: unknown }) {
    super(agentError.message, options);
    this.name = 'ProviderRejection';
    this.agentError = Object.freeze({ ...agentError });
  }
}

export function isProviderRejection(value: unknown): value is ProviderRejection {
  return value instanceof ProviderRejection;
}

const FALLBACK_MESSAGE = 'an unexpected error occurred';

/**
 * Converts anything into an AgentError. Deliberately lossy: no stack, and no
 * message text from arbitrary errors (upstream text must never be persisted);
 * only values that already are AgentErrors keep their message.
 */
export function toAgentError(value: unknown, fallback: AgentErrorCode = 'internal'): AgentError {
  try {
    if (value instanceof AgentRuntimeError) return value.error;
    if (value instanceof ProviderRejection) return value.agentError;
    if (typeof value === 'object' && value !== null && !(value instanceof Error)) {
      const captured = captureJson(value);
      if (captured.ok) {
        const parsed = agentErrorSchema.safeParse(captured.value);
        if (parsed.success) return Object.freeze(parsed.data);
      }
    }
  } catch {
    // A hostile value (e.g. a throwing proxy) falls through to the fallback.
  }
  return agentError(fallback, FALLBACK_MESSAGE);
}
