/**
 * Bounded token vocabularies (CODEX-BEHAVIOUR §10). Everything the adapter publishes in a
 * `providerCode`, a diagnostic or a drop report comes from one of these lists, never from
 * upstream text.
 */
import {
  CODEX_TRANSPORT_ERROR_CODES,
  DROP_REASONS,
  type CodexTransportErrorCode,
  type DropReason,
} from '../transport/types.js';

export { CODEX_TRANSPORT_ERROR_CODES, DROP_REASONS };
export type { CodexTransportErrorCode, DropReason };

/** §4.2: classification of a JSON-RPC error the server returned. */
export const WIRE_CLASSIFICATIONS = [
  'overloaded',
  'invalid_request',
  'method_not_found',
  'invalid_params',
  'internal_error',
  'parse_error',
  'unclassified',
] as const;
export type WireClassification = (typeof WIRE_CLASSIFICATIONS)[number];

/** §4.1: failures the client itself produces. */
export const CLIENT_PROVIDER_CODES = [
  'request_timeout',
  'connection_lost',
  'connection_closed',
] as const;
export type ClientProviderCode = (typeof CLIENT_PROVIDER_CODES)[number];

export const SESSION_PROVIDER_CODES = ['session_fenced', 'pre_binding_terminal_overflow'] as const;

export const TURN_STATUS_PROVIDER_CODES = ['inProgress', 'unknown_status'] as const;

export const LIFECYCLE_PROVIDER_CODES = [
  'handshake_cleanup_pending',
  'abandoned_connection_pending',
  'unsupported_app_server_version',
] as const;

/** §10.2: turn error classifications mapped to `provider_unavailable` (retryable). */
export const TURN_ERROR_RETRYABLE_CLASSIFICATIONS = [
  'rateLimitExceeded',
  'serverOverloaded',
  'httpConnectionFailed',
  'responseStreamConnectionFailed',
  'responseStreamDisconnected',
  'responseTooManyFailedAttempts',
  'internalServerError',
] as const;

/** §10.2: turn error classifications mapped to `provider_rejected`. */
export const TURN_ERROR_REJECTED_CLASSIFICATIONS = [
  'contextWindowExceeded',
  'sessionBudgetExceeded',
  'usageLimitExceeded',
  'cyberPolicy',
  'misalignmentPolicyViolation',
  'unauthorized',
  'badRequest',
  'threadRollbackFailed',
  'sandboxError',
  'activeTurnNotSteerable',
  'other',
  'unclassified',
] as const;

export const TURN_ERROR_CLASSIFICATIONS = [
  ...TURN_ERROR_RETRYABLE_CLASSIFICATIONS,
  ...TURN_ERROR_REJECTED_CLASSIFICATIONS,
] as const;
export type TurnErrorClassification = (typeof TURN_ERROR_CLASSIFICATIONS)[number];

/** §10.1: every value an `AgentError.providerCode` may take ('unclassified' appears in two groups). */
export const PROVIDER_CODES = [
  ...new Set([
    ...WIRE_CLASSIFICATIONS,
    ...CLIENT_PROVIDER_CODES,
    ...SESSION_PROVIDER_CODES,
    ...TURN_STATUS_PROVIDER_CODES,
    ...LIFECYCLE_PROVIDER_CODES,
    ...TURN_ERROR_CLASSIFICATIONS,
  ]),
] as readonly ProviderCode[];
export type ProviderCode =
  | WireClassification
  | ClientProviderCode
  | (typeof SESSION_PROVIDER_CODES)[number]
  | (typeof TURN_STATUS_PROVIDER_CODES)[number]
  | (typeof LIFECYCLE_PROVIDER_CODES)[number]
  | TurnErrorClassification;

/** §10.3 / §6.7: why a session was fenced. */
export const FENCE_REASONS = [
  'turn_start_unacknowledged',
  'turn_start_unusable_id',
  'unattributable_terminal_overflow',
  'server_request_ledger_overflow',
] as const;
export type FenceReason = (typeof FENCE_REASONS)[number];

/** §9.5: why a command approval was refused (answered -32602). */
export const APPROVAL_REFUSAL_TOKENS = [
  'malformed',
  'kind_unsupported',
  'environment_unsupported',
  'no_reviewable_command',
  'policy_amendment_proposed',
  'no_approvable_decision',
  'detail_too_large',
] as const;
export type ApprovalRefusalToken = (typeof APPROVAL_REFUSAL_TOKENS)[number];

/** §9.6: why a structured question batch was refused (answered -32602). */
export const QUESTION_REFUSAL_TOKENS = [
  'malformed',
  'not_blocking',
  'auto_resolution_requested',
  'question_count',
  'duplicate_question_id',
  'duplicate_option_label',
  'detail_too_large',
  'neutral_bounds',
] as const;
export type QuestionRefusalToken = (typeof QUESTION_REFUSAL_TOKENS)[number];

export const REFUSAL_TOKENS = [
  ...new Set([...APPROVAL_REFUSAL_TOKENS, ...QUESTION_REFUSAL_TOKENS]),
] as readonly RefusalToken[];
export type RefusalToken = ApprovalRefusalToken | QuestionRefusalToken;

/** §10.3: tokens for a thrown cause; anything unrecognised is `unknown`. */
export const THROWN_CAUSE_TOKENS = [
  'ABORT_ERR',
  'EACCES',
  'ECONNRESET',
  'ENOENT',
  'ENOTDIR',
  'EPERM',
  'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ETIMEDOUT',
  'unknown',
] as const;
export type ThrownCauseToken = (typeof THROWN_CAUSE_TOKENS)[number];

/** §9.9: the pinned server-request methods; a diagnostic may name only these. */
export {
  CODEX_SERVER_REQUEST as PINNED_SERVER_REQUEST_METHODS,
  isPinnedServerRequest as isPinnedServerRequestMethod,
  type CodexServerRequestMethod as PinnedServerRequestMethod,
} from '../constants.js';

/** Diagnostics the JSON-RPC client reports; none carries an id or upstream text. */
export const RPC_DIAGNOSTIC_TOKENS = [
  'server_request_declined',
  'server_request_handler_failed',
  'server_request_id_reused',
  'server_request_ledger_overflow',
  'callback_failed',
] as const;
export type RpcDiagnosticToken = (typeof RPC_DIAGNOSTIC_TOKENS)[number];
