import {
  AgentRuntimeError,
  agentError,
  classBrand,
  fixedField,
  fixField,
  isAgentRuntimeError,
  type AgentError,
  type AgentErrorCode,
  type JsonObject,
  type ProviderRejection,
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
  'option_invalid',
] as const;

export const RUNTIME_ERROR_REASONS = [
  ...RUNTIME_CONFIG_REFUSALS,
  'config_unreadable',
  'provider_session_invalid',
  'session_busy',
  'turn_input_invalid',
  'interrupt_unsupported',
  'steer_unsupported',
  'structured_output_unsupported',
  'output_schema_invalid',
  'run_option_unsupported',
  'turn_option_unknown',
  'turn_option_invalid',
  'fork_unsupported',
  'revert_unsupported',
  'history_unsupported',
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
  'store_path_invalid',
  'store_moved',
  'envelope_invalid',
  'store_closed',
  'store_conflict',
  'log_corrupt',
  'session_leased',
  'lease_lost',
  'subscriber_overflow',
  'cursor_out_of_range',
  'session_not_resumable',
  'resume_workspace_mismatch',
  'resume_provider_mismatch',
  'resume_refused',
  'takeover_abandoned',
  'record_key_missing',
  'record_key_invalid',
  'record_key_insecure',
  'record_unverified',
  'session_not_forkable',
  'fork_refused',
  'session_unowned',
  'command_duplicate',
  'command_outcome_unknown',
  'command_invalid',
  'store_no_locks',
  'store_driver_missing',
  'telemetry_api_missing',
] as const;
export type RuntimeErrorReason = (typeof RUNTIME_ERROR_REASONS)[number];

/**
 * Whether retrying the same request can succeed, decided per reason (the SPI's per-code default
 * disagreed: a refused workspace read `workspace_unavailable`, retryable). A `Record` so that a
 * new reason cannot be added without deciding.
 */
const RETRYABLE_BY_REASON: Readonly<Record<RuntimeErrorReason, boolean>> = {
  config_invalid: false,
  unknown_profile: false,
  unknown_provider: false,
  provider_factory_failed: false,
  provider_options_refused: false,
  session_options_refused: false,
  descriptor_invalid: false,
  descriptor_id_mismatch: false,
  wire_incompatible: false,
  workspace_invalid: false,
  config_unreadable: false,
  option_invalid: false,
  provider_session_invalid: false,
  session_busy: false,
  turn_input_invalid: false,
  interrupt_unsupported: false,
  steer_unsupported: false,
  structured_output_unsupported: false,
  output_schema_invalid: false,
  run_option_unsupported: false,
  turn_option_unknown: false,
  turn_option_invalid: false,
  fork_unsupported: false,
  revert_unsupported: false,
  history_unsupported: false,
  session_not_ready: false,
  session_closed: false,
  runtime_shut_down: false,
  unknown_session: false,
  unknown_interaction: false,
  no_active_run: false,
  interaction_settled: false,
  response_invalid: false,
  // a provider's own refusal keeps the provider's verdict (see providerRefusal)
  provider_rejected: false,
  provider_unknown_outcome: true,
  dispose_failed: true,
  store_locked: true,
  store_corrupt: false,
  store_newer_schema: false,
  store_foreign: false,
  store_io: true,
  store_path_invalid: false,
  store_moved: false,
  envelope_invalid: false,
  store_closed: false,
  store_conflict: false,
  // a stored row is missing or damaged: reading it again reads the same damage
  log_corrupt: false,
  // another runtime holds the session's lease; it may lapse
  session_leased: true,
  // this runtime's lease lapsed or was taken over: its view of the session is stale
  lease_lost: false,
  subscriber_overflow: false,
  cursor_out_of_range: false,
  session_not_resumable: false,
  resume_workspace_mismatch: false,
  resume_provider_mismatch: false,
  // the provider's verdict decides (a thread still open elsewhere may be free later)
  resume_refused: false,
  // a takeover whose provider sessions did not open wrote nothing and freed the lease
  takeover_abandoned: true,
  // the log's record key: absent, malformed or readable by others; fixed by the host, not a retry
  record_key_missing: false,
  record_key_invalid: false,
  record_key_insecure: false,
  // a recovery record whose MAC is missing or wrong: altered, or written under another key
  record_unverified: false,
  session_not_forkable: false,
  // the provider's verdict decides
  fork_refused: false,
  // no runtime held the session within the wait, and this one could not take it over
  session_unowned: true,
  command_duplicate: false,
  // the owner that accepted the command died before settling it: it may have taken effect
  command_outcome_unknown: false,
  command_invalid: false,
  // the filesystem under a SQLite log does not lock: several processes would corrupt it
  store_no_locks: false,
  // the host installs the driver; asking again without it cannot succeed
  store_driver_missing: false,
  // the same for the OpenTelemetry API a host asked the runtime to emit through
  telemetry_api_missing: false,
};

/** Whether a refusal with this reason may succeed when retried unchanged. */
export function isRetryableReason(reason: RuntimeErrorReason): boolean {
  return RETRYABLE_BY_REASON[reason];
}

export interface RuntimeErrorOptions {
  details?: JsonObject;
  cause?: unknown;
  /** The provider's own code, when the refusal passes a provider's reason on. */
  providerCode?: string;
  /** Overrides the reason's verdict: only for a provider's refusal passed on as it came. */
  retryable?: boolean;
}

const RUNTIME_ERROR = classBrand('@relvo-labs/agent-runtime', 'RuntimeError');

/** The one throwable of the runtime: an SPI `AgentRuntimeError` plus a bounded `reason`. */
export class RuntimeError extends AgentRuntimeError {
  declare readonly reason: RuntimeErrorReason;

  // the brand, and `instanceof` answered by it (so by any copy of this package)
  static {
    RUNTIME_ERROR.mark(this, isRuntimeError);
  }

  constructor(
    code: AgentErrorCode,
    reason: RuntimeErrorReason,
    message: string,
    options: RuntimeErrorOptions = {},
  ) {
    const base = agentError(code, message, {
      details: { reason, ...(options.details ?? {}) },
      ...(options.providerCode === undefined ? {} : { providerCode: options.providerCode }),
    });
    const error: AgentError = {
      ...base,
      retryable: options.retryable ?? RETRYABLE_BY_REASON[reason],
    };
    super(error, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RuntimeError';
    fixField(this, 'reason', reason);
  }
}

/**
 * Whether `value` is a `RuntimeError` of any copy of this package (its ESM or CommonJS build):
 * the brand, a valid SPI error, and a known `reason` fixed beside it. Never throws.
 */
export function isRuntimeError(value: unknown): value is RuntimeError {
  return (
    isAgentRuntimeError(value) &&
    RUNTIME_ERROR.recognises(value, (branded) =>
      (RUNTIME_ERROR_REASONS as readonly unknown[]).includes(fixedField(branded, 'reason')),
    )
  );
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

/**
 * A provider's refusal passed on with the provider's code, providerCode, details (under
 * `providerDetails`) and retryability; `where` names the profile (and a key path when the
 * refusal is of that key).
 */
export function providerRefusal(
  rejection: ProviderRejection,
  reason: RuntimeErrorReason,
  message: string,
  where: JsonObject,
): RuntimeError {
  const refused = rejection.agentError;
  const details: JsonObject = { ...where };
  if (refused.details !== undefined) details.providerDetails = refused.details;
  return new RuntimeError(refused.code, reason, message, {
    details,
    cause: rejection,
    // a refusal of the host's request is never retryable, whatever the provider says
    retryable: (RUNTIME_CONFIG_REFUSALS as readonly string[]).includes(reason)
      ? false
      : refused.retryable,
    ...(refused.providerCode === undefined ? {} : { providerCode: refused.providerCode }),
  });
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
