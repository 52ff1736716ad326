import {
  AgentRuntimeError,
  agentError,
  type AgentErrorCode,
  type JsonObject,
} from '@relvo-labs/agent-provider';

/**
 * Bounded reason tokens: each runtime refusal carries one, so a host can branch on
 * `error.reason` without parsing prose. The SPI `code` stays the coarse class.
 */
/**
 * The reasons that refuse what the host asked for (its config, the profile, the provider, their
 * options, the workspace): fixing the request, not retrying it, is the remedy.
 */
export const RUNTIME_CONFIG_REFUSALS = [
  'config_invalid',
  'unknown_profile',
  'unknown_provider',
  'provider_factory_failed',
  'provider_options_refused',
  'session_options_refused',
  'descriptor_invalid',
  'descriptor_id_mismatch',
  'wire_incompatible',
  'workspace_invalid',
] as const;

export const RUNTIME_ERROR_REASONS = [
  ...RUNTIME_CONFIG_REFUSALS,
  'config_unreadable',
  'session_busy',
  'turn_input_invalid',
  'interrupt_unsupported',
  'session_not_ready',
  'session_closed',
  'runtime_shut_down',
  'unknown_session',
  'unknown_interaction',
  'no_active_run',
  'interaction_settled',
  'response_invalid',
  'provider_rejected',
  'provider_unknown_outcome',
  'dispose_failed',
  'store_locked',
  'store_corrupt',
  'store_newer_schema',
  'store_foreign',
  'store_io',
  'store_closed',
  'store_conflict',
  'subscriber_overflow',
  'cursor_out_of_range',
] as const;
export type RuntimeErrorReason = (typeof RUNTIME_ERROR_REASONS)[number];

/** The one throwable of the runtime: an SPI `AgentRuntimeError` plus a bounded `reason`. */
export class RuntimeError extends AgentRuntimeError {
  readonly reason: RuntimeErrorReason;

  constructor(
    code: AgentErrorCode,
    reason: RuntimeErrorReason,
    message: string,
    options: { details?: JsonObject; cause?: unknown } = {},
  ) {
    super(
      agentError(code, message, { details: { reason, ...(options.details ?? {}) } }),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'RuntimeError';
    this.reason = reason;
  }
}

export function isRuntimeError(value: unknown): value is RuntimeError {
  return value instanceof RuntimeError;
}

/** Whether `value` is a runtime refusal of the host's request (RUNTIME_CONFIG_REFUSALS). */
export function isConfigRefusal(value: unknown): value is RuntimeError {
  return (
    isRuntimeError(value) && (RUNTIME_CONFIG_REFUSALS as readonly string[]).includes(value.reason)
  );
}

/** A refusal of the host config: names the profile (when there is one) and the key path. */
export function configError(
  reason: RuntimeErrorReason,
  message: string,
  where: { profile?: string; path: string; details?: JsonObject },
  cause?: unknown,
): RuntimeError {
  const details: JsonObject = { path: where.path, ...(where.details ?? {}) };
  if (where.profile !== undefined) details.profile = where.profile;
  return new RuntimeError('invalid_request', reason, message, { details, cause });
}

/** A rejected promise that always carries an Error (never a synchronous throw). */
export function rejection<T = never>(error: unknown): Promise<T> {
  return Promise.reject(
    error instanceof Error
      ? error
      : new RuntimeError(
          'internal',
          'provider_unknown_outcome',
          'an unexpected non-error value was thrown',
        ),
  );
}
