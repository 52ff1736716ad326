import { classBrand, fixedField, fixField } from './brand.js';
import { captureJson, isJsonObject, type JsonObject } from './json.js';
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

const FALLBACK_MESSAGE = 'an unexpected error occurred';
const SPI_PACKAGE = '@relvo-labs/agent-provider';
const AGENT_RUNTIME_ERROR = classBrand(SPI_PACKAGE, 'AgentRuntimeError');
const PROVIDER_REJECTION = classBrand(SPI_PACKAGE, 'ProviderRejection');

/**
 * How sure a failure is that its effect was not applied (docs/spi.md §15). Decided where the
 * error is made: `definite` is a `ProviderRejection`; anything else a provider throws is `unknown`.
 */
export type OutcomeCertainty = 'definite' | 'unknown';

/** The in-process throwable form of an AgentError. */
export class AgentRuntimeError extends Error {
  declare readonly error: AgentError;
  declare readonly code: AgentErrorCode;

  // the brand, and `instanceof` answered by it (so by any copy of this package)
  static {
    AGENT_RUNTIME_ERROR.mark(this, isAgentRuntimeError);
  }

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
        : settledAgentError(errorOrCode);
    const cause = typeof messageOrOptions === 'object' ? messageOrOptions.cause : opts?.cause;
    super(error.message, cause === undefined ? undefined : { cause });
    this.name = 'AgentRuntimeError';
    fixField(this, 'error', error);
    fixField(this, 'code', error.code);
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
  declare readonly agentError: AgentError;
  /** Always `definite`: carried so that any copy of this package reads the verdict as made. */
  declare readonly certainty: 'definite';

  // the brand, and `instanceof` answered by it (so by any copy of this package)
  static {
    PROVIDER_REJECTION.mark(this, isProviderRejection);
  }

  constructor(agentError: AgentError, options?: { cause?: unknown }) {
    const error = settledAgentError(agentError);
    super(error.message, options);
    this.name = 'ProviderRejection';
    fixField(this, 'agentError', error);
    fixField(this, 'certainty', 'definite');
  }
}

/**
 * Whether `value` is an `AgentRuntimeError` of any copy of this package: it carries the brand
 * and a valid, frozen AgentError that cannot be swapped afterwards. Never throws.
 */
export function isAgentRuntimeError(value: unknown): value is AgentRuntimeError {
  return AGENT_RUNTIME_ERROR.recognises(value, (branded) => {
    const error = fixedField(branded, 'error');
    return isSettledAgentError(error) && fixedField(branded, 'code') === error.code;
  });
}

/** Whether `value` is a `ProviderRejection` of any copy of this package (a definite refusal). */
export function isProviderRejection(value: unknown): value is ProviderRejection {
  return PROVIDER_REJECTION.recognises(
    value,
    (branded) =>
      fixedField(branded, 'certainty') === 'definite' &&
      isSettledAgentError(fixedField(branded, 'agentError')),
  );
}

/** `definite` only for a `ProviderRejection` (docs/spi.md §15). */
export function certaintyOf(value: unknown): OutcomeCertainty {
  return isProviderRejection(value) ? 'definite' : 'unknown';
}

function isSettledAgentError(value: unknown): value is AgentError {
  return Object.isFrozen(value) && agentErrorSchema.safeParse(value).success;
}

/**
 * The frozen AgentError an error object carries. A value that does not parse (a message over
 * the bound, details that are not JSON, a key the schema does not know) is rebuilt through
 * `agentError`, which clamps; one without a known code becomes `internal`. Never throws.
 */
function settledAgentError(value: AgentError): AgentError {
  try {
    const parsed = agentErrorSchema.safeParse(value);
    if (parsed.success) return Object.freeze(parsed.data);
    const { code, message, details, providerCode, retryable } = value;
    const rebuilt = agentError(
      isAgentErrorCode(code) ? code : 'internal',
      typeof message === 'string' ? message : '',
      {
        ...(isJsonObject(details) ? { details } : {}),
        ...(typeof providerCode === 'string' ? { providerCode } : {}),
      },
    );
    return typeof retryable === 'boolean' && isAgentErrorCode(code)
      ? Object.freeze({ ...rebuilt, retryable })
      : rebuilt;
  } catch {
    return agentError('internal', FALLBACK_MESSAGE);
  }
}

/**
 * Converts anything into an AgentError. Deliberately lossy: no stack, and no message text from
 * arbitrary errors (upstream text must never be persisted); only values that already are
 * AgentErrors keep their message. The SPI's errors are recognised by brand, from any copy.
 */
export function toAgentError(value: unknown, fallback: AgentErrorCode = 'internal'): AgentError {
  try {
    if (isAgentRuntimeError(value)) return value.error;
    if (isProviderRejection(value)) return value.agentError;
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
