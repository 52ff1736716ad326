/**
 * The protocol vocabulary: the wire method names the adapter sends and answers, the JSON-RPC
 * error codes, and the published codes (docs/errors.md, docs/behaviour.md §10): everything the
 * adapter publishes in a `providerCode`, a diagnostic or a drop report comes from one of these
 * lists, never from upstream text. Data only; it imports nothing, so every layer may depend on
 * it. A list with one user lives beside that user; the notifications the adapter reads are
 * decoded in `inbound.ts`.
 */

// ---- methods -----------------------------------------------------------------------------

/** Requests and notifications the adapter sends. */
export const CODEX_CLIENT_METHOD = {
  initialize: 'initialize',
  initialized: 'initialized',
  threadStart: 'thread/start',
  threadResume: 'thread/resume',
  threadFork: 'thread/fork',
  configRead: 'config/read',
  turnStart: 'turn/start',
  turnInterrupt: 'turn/interrupt',
  turnSteer: 'turn/steer',
  accountRead: 'account/read',
  modelList: 'model/list',
  accountRateLimitsRead: 'account/rateLimits/read',
  threadInjectItems: 'thread/inject_items',
  threadRevert: 'thread/revert',
  threadTurnsList: 'thread/turns/list',
  accountLoginStart: 'account/login/start',
  accountLogout: 'account/logout',
  accountLoginCancel: 'account/login/cancel',
} as const;

/** The notifications the adapter reads are decoded in `inbound.ts`, one schema per method. */

/** The `sandbox` values `thread/start` takes. */
export const CODEX_SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
export type CodexSandboxMode = (typeof CODEX_SANDBOX_MODES)[number];

/** Every server-request method of the stable surface (the same in every reviewed release). */
// prettier-ignore
export const CODEX_SERVER_REQUEST = [
  'item/commandExecution/requestApproval', 'item/fileChange/requestApproval',
  'item/permissions/requestApproval', 'item/tool/requestUserInput', 'item/tool/call',
  'mcpServer/elicitation/request', 'applyPatchApproval', 'execCommandApproval',
  'account/chatgptAuthTokens/refresh', 'attestation/generate',
] as const;
export type CodexServerRequestMethod = (typeof CODEX_SERVER_REQUEST)[number];

/** A diagnostic may name a server-request method only when it is one of these (docs/behaviour.md §9.9). */
export function isPinnedServerRequest(method: string): method is CodexServerRequestMethod {
  return (CODEX_SERVER_REQUEST as readonly string[]).includes(method);
}

/** The two server requests that can become neutral interactions. */
export const CODEX_BRIDGED_APPROVAL = 'item/commandExecution/requestApproval';
export const CODEX_BRIDGED_QUESTION = 'item/tool/requestUserInput';
export const CODEX_BRIDGED_FILE_CHANGE = 'item/fileChange/requestApproval';
export const CODEX_BRIDGED_PERMISSIONS = 'item/permissions/requestApproval';
export const CODEX_BRIDGED_ELICITATION = 'mcpServer/elicitation/request';
/** A call of a host tool declared with `thread/start.dynamicTools` (experimental API). */
export const CODEX_BRIDGED_TOOL_CALL = 'item/tool/call';

// ---- JSON-RPC error codes ----------------------------------------------------------------

/** The numeric JSON-RPC error codes the adapter classifies or answers with. */
export const JSON_RPC_ERROR = {
  overloaded: -32001,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  parseError: -32700,
} as const;

// ---- drops and transport failures --------------------------------------------------------

/** Why an inbound line or frame was dropped. Bounded tokens only: never payload text. */
// prettier-ignore
export const DROP_REASONS = [
  'oversized', 'malformed', 'unclassifiable', 'unknown_reply', 'duplicate_server_request',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

/** Why a frame could not be classified; the detail of an `unclassifiable` drop. */
// prettier-ignore
export const UNCLASSIFIABLE_REASONS = [
  'not_object', 'bad_method', 'no_method_or_id', 'method_with_reply', 'bad_id', 'id_only',
  'result_and_error', 'bad_error_body', 'unreadable',
] as const;
export type UnclassifiableReason = (typeof UNCLASSIFIABLE_REASONS)[number];

// prettier-ignore
export const CODEX_TRANSPORT_ERROR_CODES = [
  'spawn_failed', 'stdout_error', 'child_did_not_exit', 'process_group_did_not_exit',
  'group_cleanup_unverified', 'write_refused', 'write_interrupted', 'write_timeout',
] as const;
export type CodexTransportErrorCode = (typeof CODEX_TRANSPORT_ERROR_CODES)[number];

/** docs/behaviour.md §10.3: tokens for a thrown cause; anything unrecognised is `unknown`. */
// prettier-ignore
export const THROWN_CAUSE_TOKENS = [
  'ABORT_ERR', 'EACCES', 'ECONNRESET', 'ENOENT', 'ENOTDIR', 'EPERM', 'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE', 'ETIMEDOUT', 'unknown',
] as const;
export type ThrownCauseToken = (typeof THROWN_CAUSE_TOKENS)[number];

/** A bounded token naming why a stream or call failed: a transport code or a thrown-cause token. */
export type CauseToken = ThrownCauseToken | CodexTransportErrorCode;

// ---- provider codes ----------------------------------------------------------------------

/** docs/behaviour.md §4.2: classification of a JSON-RPC error the server returned. */
// prettier-ignore
export const WIRE_CLASSIFICATIONS = [
  'overloaded', 'invalid_request', 'method_not_found', 'invalid_params', 'internal_error',
  'parse_error', 'unclassified',
] as const;
export type WireClassification = (typeof WIRE_CLASSIFICATIONS)[number];

/** docs/behaviour.md §4.1: failures the client itself produces. */
// prettier-ignore
export const CLIENT_PROVIDER_CODES = ['request_timeout', 'request_aborted', 'connection_lost', 'connection_closed'] as const;
export type ClientProviderCode = (typeof CLIENT_PROVIDER_CODES)[number];

// prettier-ignore
export const SESSION_PROVIDER_CODES = [
  'session_fenced', 'pre_binding_terminal_overflow', 'pre_binding_overflow', 'turn_stalled',
] as const;

export const TURN_STATUS_PROVIDER_CODES = [
  'inProgress',
  'unknown_status',
  'output_schema_mismatch',
] as const;

// prettier-ignore
export const LIFECYCLE_PROVIDER_CODES = [
  'handshake_cleanup_pending', 'abandoned_connection_pending', 'unsupported_app_server_version',
] as const;

/** Why a recovery record was refused (ADR-0016): never a silent fresh thread. */
// prettier-ignore
export const RECOVERY_PROVIDER_CODES = [
  'recovery_record_malformed', 'recovery_record_foreign', 'recovery_workspace_mismatch',
  'recovery_codex_home_mismatch', 'recovery_thread_unknown', 'recovery_thread_open_elsewhere',
  // file references (ADR-0017)
  'file_ref_outside_workspace', 'file_ref_unresolvable', 'file_ref_not_regular_file',
  'file_ref_unpinnable', 'file_ref_too_large',
] as const;

/**
 * codex's own `codexErrorInfo` names as of the reviewed window (0.153.4–0.171.0); published
 * only as `details.classification` of a failed turn, never as its `providerCode`.
 */
// prettier-ignore
export const TURN_ERROR_CLASSIFICATIONS = [
  'contextWindowExceeded', 'sessionBudgetExceeded', 'usageLimitExceeded', 'rateLimitExceeded',
  'flexUnavailable', 'serverOverloaded', 'modelNotFound', 'policyCapacityUnavailable',
  'cyberPolicy', 'bioPolicy', 'misalignmentPolicyViolation', 'tooManyDenials',
  'inferenceHookDenied', 'internalServerError', 'unauthorized', 'badRequest',
  'threadRollbackFailed', 'sandboxError', 'httpConnectionFailed',
  'responseStreamConnectionFailed', 'responseStreamDisconnected',
  'responseTooManyFailedAttempts', 'activeTurnNotSteerable', 'other', 'unclassified',
] as const;
export type TurnErrorClassification = (typeof TURN_ERROR_CLASSIFICATIONS)[number];

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
export const STARTUP_PROVIDER_CODES = [
  'spawn_failed', 'workspace_missing', 'workspace_inaccessible', 'workspace_not_directory',
  'exited_before_initialize', 'handshake_invalid', 'initialize_timeout',
] as const;
export type StartupProviderCode = (typeof STARTUP_PROVIDER_CODES)[number];

/** Why a call was refused before anything was sent. */
// prettier-ignore
export const REQUEST_PROVIDER_CODES = [
  'invalid_options', 'invalid_input', 'input_too_large', 'run_ref_missing', 'run_ref_conflict',
  'sink_missing', 'write_failed', 'invalid_output_schema', 'invalid_run_option',
  'run_option_not_restorable', 'run_option_default_unread',
  // a revert (src/session/revert.ts)
  'run_active', 'revert_beyond_history',
] as const;
export type RequestProviderCode = (typeof REQUEST_PROVIDER_CODES)[number];

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

/** The same set as a list ('unclassified' is in two groups and listed once). */
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

// ---- session and interaction tokens ------------------------------------------------------

/** docs/behaviour.md §10.3 / §6.7: why a session was fenced. */
// prettier-ignore
export const FENCE_REASONS = [
  'turn_start_unacknowledged', 'turn_start_unusable_id', 'unattributable_terminal_overflow',
  'server_request_ledger_overflow', 'turn_stalled_unresponsive', 'pre_binding_overflow',
] as const;
export type FenceReason = (typeof FENCE_REASONS)[number];

/** Diagnostics the JSON-RPC client reports; none carries an id or upstream text. */
// prettier-ignore
export const RPC_DIAGNOSTIC_TOKENS = [
  'server_request_declined', 'server_request_handler_failed', 'server_request_id_reused',
  'server_request_ledger_overflow', 'callback_failed',
] as const;
export type RpcDiagnosticToken = (typeof RPC_DIAGNOSTIC_TOKENS)[number];

/**
 * A bridge's refusal tokens: the two every bridge has (`malformed` first, `detail_too_large`
 * after the bridge's own `checks`), then its `later` ones, in that order.
 */
function refusalTokens<
  const Checks extends readonly string[],
  const Later extends readonly string[],
>(checks: Checks, later: Later) {
  return ['malformed', ...checks, 'detail_too_large', ...later] as const;
}

/** docs/behaviour.md §9.5: why a command approval was refused (answered -32602). */
export const APPROVAL_REFUSAL_TOKENS = refusalTokens(
  // prettier-ignore
  [
    'kind_unsupported', 'environment_unsupported', 'no_reviewable_command',
    'policy_amendment_proposed', 'no_approvable_decision',
  ],
  // file-change approvals (ADR-0015)
  // prettier-ignore
  [
    'no_reviewable_subject', 'grant_root_requested', 'outside_workspace_change',
    // permission requests and MCP elicitations (ADR-0040)
    'permission_unsupported', 'no_requested_permission', 'not_turn_scoped', 'mode_unsupported',
  ],
);
export type ApprovalRefusalToken = (typeof APPROVAL_REFUSAL_TOKENS)[number];

/** docs/behaviour.md §9.6: why a structured question batch was refused (answered -32602). */
export const QUESTION_REFUSAL_TOKENS = refusalTokens(
  // prettier-ignore
  [
    'not_blocking', 'auto_resolution_requested', 'question_count', 'duplicate_question_id',
    'duplicate_option_label',
  ],
  // an MCP form whose schema has no faithful question kind (ADR-0040)
  ['neutral_bounds', 'schema_unsupported'],
);
export type QuestionRefusalToken = (typeof QUESTION_REFUSAL_TOKENS)[number];

/**
 * Why a host tool's call never reached the host; codex is answered a failure the model reads
 * (docs/behaviour.md §9.11), not an error.
 */
export const TOOL_CALL_REFUSAL_TOKENS = refusalTokens(
  ['unknown_tool', 'invalid_input'],
  ['namespace_unsupported'],
);
export type ToolCallRefusalToken = (typeof TOOL_CALL_REFUSAL_TOKENS)[number];

export type RefusalToken = ApprovalRefusalToken | QuestionRefusalToken | ToolCallRefusalToken;
export const REFUSAL_TOKENS = [
  ...new Set([...APPROVAL_REFUSAL_TOKENS, ...QUESTION_REFUSAL_TOKENS, ...TOOL_CALL_REFUSAL_TOKENS]),
] as readonly RefusalToken[];

/** docs/behaviour.md §9.4 step 2: why no run owns an interaction request. */
// prettier-ignore
export const OWNER_REFUSAL_REASONS = [
  'no_active_run', 'run_not_bound', 'run_concluded', 'run_interrupting', 'session_closing',
  'session_fenced', 'correlation_mismatch',
] as const;
export type OwnerRefusalReason = (typeof OWNER_REFUSAL_REASONS)[number];

/** What the interaction registry reports as a diagnostic. */
// prettier-ignore
export const REGISTRY_DIAGNOSTIC_CODES = [
  'interaction_refused', 'interaction_not_owned',
  'interactions_full', 'interaction_request_reused', 'interaction_reply_failed',
] as const;
export type RegistryDiagnosticCode = (typeof REGISTRY_DIAGNOSTIC_CODES)[number];

/** Session-wide retirement of interactions: everything is released, nothing further admitted. */
export const SESSION_RETIREMENT_CAUSES = ['dispose', 'stream_end'] as const;
export type SessionRetirementCause = (typeof SESSION_RETIREMENT_CAUSES)[number];
