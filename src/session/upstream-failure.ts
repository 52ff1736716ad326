/**
 * What a failed turn tells the host (docs/adr/ADR-0011): codex's `codexErrorInfo` and, only when
 * that says nothing, two message shapes codex itself writes, mapped onto a small closed set of
 * provider codes. The message is read for those shapes and never copied.
 */
import type { AgentErrorCode } from '@relvo-labs/agent-provider';
import { UPSTREAM_PROVIDER_CODES, type UpstreamProviderCode } from '../protocol/provider-codes.js';

/**
 * codex's own `codexErrorInfo` names as of the reviewed window (0.153.4–0.171.0); published
 * only as `details.classification` of a failed turn, never as its `providerCode`.
 */
// prettier-ignore
const TURN_ERROR_CLASSIFICATIONS = [
  'contextWindowExceeded', 'sessionBudgetExceeded', 'usageLimitExceeded', 'rateLimitExceeded',
  'flexUnavailable', 'serverOverloaded', 'modelNotFound', 'policyCapacityUnavailable',
  'cyberPolicy', 'bioPolicy', 'misalignmentPolicyViolation', 'tooManyDenials',
  'inferenceHookDenied', 'internalServerError', 'unauthorized', 'badRequest',
  'threadRollbackFailed', 'sandboxError', 'httpConnectionFailed',
  'responseStreamConnectionFailed', 'responseStreamDisconnected',
  'responseTooManyFailedAttempts', 'activeTurnNotSteerable', 'other', 'unclassified',
] as const;
type TurnErrorClassification = (typeof TURN_ERROR_CLASSIFICATIONS)[number];

export interface UpstreamFailure {
  readonly providerCode: UpstreamProviderCode;
  readonly code: AgentErrorCode;
  /** codex's own name when it is one we know, else `unclassified`. */
  readonly classification: TurnErrorClassification;
  /** The HTTP status codex reported (100..599), when it did. */
  readonly httpStatus?: number;
}

/** The first four upstream codes are the retryable ones (ADR-0011). */
const RETRYABLE: ReadonlySet<UpstreamProviderCode> = new Set(UPSTREAM_PROVIDER_CODES.slice(0, 4));

/** codex's names → provider code; the HTTP-carrying ones may be refined by their status. */
const BY_CLASSIFICATION: Readonly<Record<TurnErrorClassification, UpstreamProviderCode>> = {
  unauthorized: 'unauthorized',
  rateLimitExceeded: 'rate_limited',
  usageLimitExceeded: 'usage_limit',
  sessionBudgetExceeded: 'usage_limit',
  contextWindowExceeded: 'context_window_exceeded',
  modelNotFound: 'model_not_found',
  serverOverloaded: 'capacity_unavailable',
  flexUnavailable: 'capacity_unavailable',
  policyCapacityUnavailable: 'capacity_unavailable',
  internalServerError: 'upstream_unavailable',
  httpConnectionFailed: 'upstream_unavailable',
  responseStreamConnectionFailed: 'upstream_unavailable',
  responseTooManyFailedAttempts: 'upstream_unavailable',
  responseStreamDisconnected: 'stream_disconnected',
  cyberPolicy: 'policy_denied',
  bioPolicy: 'policy_denied',
  misalignmentPolicyViolation: 'policy_denied',
  tooManyDenials: 'policy_denied',
  inferenceHookDenied: 'policy_denied',
  badRequest: 'other',
  threadRollbackFailed: 'other',
  sandboxError: 'other',
  activeTurnNotSteerable: 'other',
  other: 'other',
  unclassified: 'other',
};

/** The four objects that carry `{ httpStatusCode }`. */
const CARRIES_STATUS: ReadonlySet<string> = new Set([
  'httpConnectionFailed',
  'responseStreamConnectionFailed',
  'responseStreamDisconnected',
  'responseTooManyFailedAttempts',
]);

function byStatus(status: number): UpstreamProviderCode | undefined {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404) return 'model_not_found';
  if (status === 429) return 'rate_limited';
  if (status === 408 || (status >= 500 && status <= 599)) return 'upstream_unavailable';
  if (status >= 400 && status <= 499) return 'other';
  return undefined;
}

function isHttpStatus(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599;
}

const KNOWN: ReadonlySet<string> = new Set(TURN_ERROR_CLASSIFICATIONS);

/** Reads only a plain string or the single key of a one-key object (and its status). */
function readInfo(info: unknown): { classification: TurnErrorClassification; status?: number } {
  let name: string | undefined;
  let status: number | undefined;
  if (typeof info === 'string') name = info;
  else if (info !== null && typeof info === 'object' && !Array.isArray(info)) {
    const keys = Object.keys(info);
    if (keys.length === 1) {
      name = keys[0];
      if (name !== undefined && CARRIES_STATUS.has(name)) {
        const inner = (info as Record<string, unknown>)[name];
        const code =
          inner !== null && typeof inner === 'object'
            ? (inner as Record<string, unknown>)['httpStatusCode']
            : undefined;
        if (isHttpStatus(code)) status = code;
      }
    }
  }
  const classification =
    name !== undefined && name !== 'unclassified' && KNOWN.has(name)
      ? (name as TurnErrorClassification)
      : 'unclassified';
  return status === undefined ? { classification } : { classification, status };
}

// The two shapes codex writes itself (0.153–0.171); anchored, digits only.
const UNEXPECTED_STATUS = /^unexpected status (\d{3}) /;
const STREAM_DISCONNECTED = 'stream disconnected before completion:';

function failure(
  providerCode: UpstreamProviderCode,
  classification: TurnErrorClassification,
  status: number | undefined,
): UpstreamFailure {
  const code: AgentErrorCode = RETRYABLE.has(providerCode)
    ? 'provider_unavailable'
    : 'provider_rejected';
  return status === undefined
    ? { providerCode, code, classification }
    : { providerCode, code, classification, httpStatus: status };
}

/** `turn.error` (or an `error` notification's `error`) → the failure a host can act on. */
export function classifyUpstreamFailure(error: unknown): UpstreamFailure {
  const record =
    error !== null && typeof error === 'object' && !Array.isArray(error)
      ? (error as Record<string, unknown>)
      : {};
  const { classification, status } = readInfo(record['codexErrorInfo']);
  let providerCode = BY_CLASSIFICATION[classification];
  if (status !== undefined) providerCode = byStatus(status) ?? providerCode;
  if (providerCode !== 'other') return failure(providerCode, classification, status);
  const message = record['message'];
  if (typeof message !== 'string') return failure(providerCode, classification, status);
  const unexpected = UNEXPECTED_STATUS.exec(message);
  if (unexpected?.[1] !== undefined) {
    const parsed = Number(unexpected[1]);
    if (isHttpStatus(parsed)) return failure(byStatus(parsed) ?? 'other', classification, parsed);
  }
  if (message.startsWith(STREAM_DISCONNECTED)) {
    return failure('stream_disconnected', classification, status);
  }
  return failure('other', classification, status);
}
