/**
 * The published codes: every value an `AgentError.providerCode` of the adapter may take
 * (docs/behaviour.md §10.1), grouped by where it arises. docs/errors.md lists each one with what a
 * host should do; a test holds the two equal. Data only; it imports nothing.
 */

/** docs/behaviour.md §4.2: classification of a JSON-RPC error the server returned. */
// prettier-ignore
export const WIRE_CLASSIFICATIONS = [
  'overloaded', 'invalid_request', 'method_not_found', 'invalid_params', 'internal_error',
  'parse_error', 'unclassified',
] as const;
export type WireClassification = (typeof WIRE_CLASSIFICATIONS)[number];

/** docs/behaviour.md §4.1: failures the client itself produces. */
// prettier-ignore
const CLIENT_PROVIDER_CODES = ['request_timeout', 'request_aborted', 'connection_lost', 'connection_closed'] as const;
type ClientProviderCode = (typeof CLIENT_PROVIDER_CODES)[number];

/** A session's own failures: fencing, the pre-binding bound, the stall watchdog. */
// prettier-ignore
const SESSION_PROVIDER_CODES = [
  'session_fenced', 'pre_binding_terminal_overflow', 'pre_binding_overflow', 'turn_stalled',
] as const;

/** A turn that completed with a status it cannot end on, or with output its schema refuses. */
const TURN_STATUS_PROVIDER_CODES = [
  'inProgress',
  'unknown_status',
  'output_schema_mismatch',
] as const;

/** Connections a failed start could not close, and a release outside the window. */
// prettier-ignore
const LIFECYCLE_PROVIDER_CODES = [
  'handshake_cleanup_pending', 'abandoned_connection_pending', 'unsupported_app_server_version',
] as const;

/** Why a recovery record was refused (ADR-0016): never a silent fresh thread. */
// prettier-ignore
const RECOVERY_PROVIDER_CODES = [
  'recovery_record_malformed', 'recovery_record_foreign', 'recovery_workspace_mismatch',
  'recovery_codex_home_mismatch', 'recovery_thread_unknown', 'recovery_thread_open_elsewhere',
  // file references (ADR-0017)
  'file_ref_outside_workspace', 'file_ref_unresolvable', 'file_ref_not_regular_file',
  'file_ref_unpinnable', 'file_ref_too_large',
] as const;

/**
 * What a failed turn tells the host (docs/adr/ADR-0011-upstream-failure-codes.md): the
 * `providerCode` of every turn failure codex reports. The first four are retryable
 * (`provider_unavailable`), the rest are `provider_rejected`.
 */
// prettier-ignore
export const UPSTREAM_PROVIDER_CODES = [
  'rate_limited', 'capacity_unavailable', 'upstream_unavailable', 'stream_disconnected',
  'unauthorized', 'usage_limit', 'context_window_exceeded', 'model_not_found', 'policy_denied',
  'other',
] as const;
export type UpstreamProviderCode = (typeof UPSTREAM_PROVIDER_CODES)[number];

/** Why `createSession` failed before a session existed. */
// prettier-ignore
const STARTUP_PROVIDER_CODES = [
  'spawn_failed', 'workspace_missing', 'workspace_inaccessible', 'workspace_not_directory',
  'exited_before_initialize', 'handshake_invalid', 'initialize_timeout',
] as const;
type StartupProviderCode = (typeof STARTUP_PROVIDER_CODES)[number];

/** Why a call was refused before anything was sent. */
// prettier-ignore
const REQUEST_PROVIDER_CODES = [
  'invalid_options', 'invalid_input', 'input_too_large', 'run_ref_missing', 'run_ref_conflict',
  'sink_missing', 'write_failed', 'invalid_output_schema', 'invalid_run_option',
  'run_option_not_restorable', 'run_option_default_unread',
  // a revert (src/session/revert.ts)
  'run_active', 'revert_beyond_history',
] as const;
type RequestProviderCode = (typeof REQUEST_PROVIDER_CODES)[number];

/** docs/behaviour.md §10.1: every value an `AgentError.providerCode` may take. */
export type ProviderCode =
  | WireClassification
  | ClientProviderCode
  | (typeof SESSION_PROVIDER_CODES)[number]
  | (typeof TURN_STATUS_PROVIDER_CODES)[number]
  | (typeof LIFECYCLE_PROVIDER_CODES)[number]
  | (typeof RECOVERY_PROVIDER_CODES)[number]
  | UpstreamProviderCode
  | StartupProviderCode
  | RequestProviderCode;

/** The same set as a list, each code once. */
export const PROVIDER_CODES = [
  ...new Set([
    ...WIRE_CLASSIFICATIONS,
    ...CLIENT_PROVIDER_CODES,
    ...SESSION_PROVIDER_CODES,
    ...TURN_STATUS_PROVIDER_CODES,
    ...LIFECYCLE_PROVIDER_CODES,
    ...RECOVERY_PROVIDER_CODES,
    ...UPSTREAM_PROVIDER_CODES,
    ...STARTUP_PROVIDER_CODES,
    ...REQUEST_PROVIDER_CODES,
  ]),
] as readonly ProviderCode[];

export function isProviderCode(value: unknown): value is ProviderCode {
  return (PROVIDER_CODES as readonly unknown[]).includes(value);
}
