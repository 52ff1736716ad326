/**
 * The one place a JSON-RPC outcome becomes an `AgentError` (docs/behaviour.md §4.1–§4.2): a
 * server error reply, a request issued after the stream ended, a timeout and a lost connection.
 * The server's own message and data are never published; only the numeric code is read, plus
 * the few measured refusals that are told apart by their text (mapped to a bounded token).
 */
import {
  agentErrorSchema,
  certaintyOf,
  classBrand,
  fixedField,
  fixField,
  type AgentError,
  type AgentErrorCode,
  type ProviderRejection,
} from '@relvo-labs/agent-provider';
import type { WireClassification } from '../protocol/provider-codes.js';
import { JSON_RPC_ERROR } from '../protocol/wire-names.js';
import { CODEX_PACKAGE, codexError, codexRejection } from '../shared/codex-error.js';

export interface WireErrorClass {
  readonly classification: WireClassification;
  readonly retryable: boolean;
  readonly agentCode: AgentErrorCode;
}

/** The rows of docs/behaviour.md §4.2: code, classification, retryable (then `provider_unavailable`). */
const WIRE_ERROR_ROWS: readonly (readonly [number, WireClassification, boolean])[] = [
  [JSON_RPC_ERROR.overloaded, 'overloaded', true],
  [JSON_RPC_ERROR.invalidRequest, 'invalid_request', false],
  [JSON_RPC_ERROR.methodNotFound, 'method_not_found', false],
  [JSON_RPC_ERROR.invalidParams, 'invalid_params', false],
  [JSON_RPC_ERROR.internalError, 'internal_error', true],
  [JSON_RPC_ERROR.parseError, 'parse_error', false],
];

/** The table of docs/behaviour.md §4.2, keyed by JSON-RPC error code. */
export const WIRE_ERROR_TABLE: ReadonlyMap<number, WireErrorClass> = new Map(
  WIRE_ERROR_ROWS.map(([code, classification, retryable]) => [
    code,
    {
      classification,
      retryable,
      agentCode: retryable ? 'provider_unavailable' : 'provider_rejected',
    },
  ]),
);

const UNCLASSIFIED: WireErrorClass = {
  classification: 'unclassified',
  retryable: false,
  agentCode: 'provider_rejected',
};

export function classifyWireErrorCode(code: number): WireErrorClass {
  return WIRE_ERROR_TABLE.get(code) ?? UNCLASSIFIED;
}

/**
 * Refusals that share a code with others and are told apart only by their text, each measured
 * on the real binary; the text is matched, never copied.
 */
const KNOWN_REFUSALS: readonly {
  readonly method: string;
  readonly code: number;
  readonly pattern: RegExp;
  readonly token: WireRefusalToken;
}[] = [
  // thread/resume of a thread another app-server still holds (measured on 0.155.0 and 0.171.0)
  {
    method: 'thread/resume',
    code: JSON_RPC_ERROR.invalidRequest,
    pattern: /\balready has an active writer\b/,
    token: 'thread_active_writer',
  },
  // measured on 0.171.0: "codex account authentication required to read rate limits" without a
  // login (or with a provider that needs none), "chatgpt authentication required…" with an API key
  {
    method: 'account/rateLimits/read',
    code: JSON_RPC_ERROR.invalidRequest,
    pattern: /\bauthentication required to read rate limits\b/,
    token: 'rate_limits_need_chatgpt_login',
  },
  // turn/steer without a turn in flight, or naming another turn (measured on 0.171.0)
  {
    method: 'turn/steer',
    code: JSON_RPC_ERROR.invalidRequest,
    pattern: /\bno active turn to steer\b|\bexpected active turn id\b/,
    token: 'no_active_turn',
  },
  // measured on 0.171.0, persisted threads: an interrupt between the turn/start reply and
  // turn/started is refused "no active turn to interrupt"; once turn/started is out it applies
  {
    method: 'turn/interrupt',
    code: JSON_RPC_ERROR.invalidRequest,
    pattern: /\bno active turn to interrupt\b/,
    token: 'turn_not_active_yet',
  },
];

export const WIRE_REFUSAL_TOKENS = [
  'thread_active_writer',
  'rate_limits_need_chatgpt_login',
  'no_active_turn',
  'turn_not_active_yet',
] as const;
export type WireRefusalToken = (typeof WIRE_REFUSAL_TOKENS)[number];

/**
 * The rejection for a wire error answering `method` (one of the adapter's own method names).
 * The numeric code decides; a known refusal adds `details.refusal` (a bounded token).
 */
export function wireRejection(
  method: string,
  error: { readonly code: number; readonly message?: string },
): ProviderRejection {
  const { classification, agentCode } = classifyWireErrorCode(error.code);
  const known = KNOWN_REFUSALS.find(
    (r) =>
      r.method === method &&
      r.code === error.code &&
      typeof error.message === 'string' &&
      r.pattern.test(error.message),
  );
  return codexRejection(agentCode, `codex rejected ${method} (${classification})`, {
    providerCode: classification,
    ...(known === undefined ? {} : { details: { refusal: known.token } }),
  });
}

/** The known refusal token a wire rejection carries, if any. */
export function wireRefusalOf(error: unknown): WireRefusalToken | undefined {
  const refusal = agentErrorOf(error)?.details?.['refusal'];
  return (WIRE_REFUSAL_TOKENS as readonly unknown[]).includes(refusal)
    ? (refusal as WireRefusalToken)
    : undefined;
}

/** The authoritative refusal of a request issued after the stream ended; nothing was written. */
export function connectionClosedRejection(method: string): ProviderRejection {
  return codexRejection('provider_unavailable', `codex connection closed before ${method}`, {
    providerCode: 'connection_closed',
  });
}

/** The authoritative refusal of a request whose frame the transport could not write. */
export function writeFailedRejection(method: string): ProviderRejection {
  return codexRejection('provider_unavailable', `codex ${method} could not be written`, {
    providerCode: 'write_failed',
  });
}

/** The failures after which the request may or may not have been admitted by the server. */
const UNCERTAIN_RPC_CODES = ['request_timeout', 'request_aborted', 'connection_lost'] as const;
export type UncertainRpcCode = (typeof UNCERTAIN_RPC_CODES)[number];

const RPC_ERROR = classBrand(CODEX_PACKAGE, 'CodexRpcError');

/**
 * A timeout or lost connection: the outcome is unknown, so this is deliberately not a
 * `ProviderRejection`, and says so in `certainty`.
 */
export class CodexRpcError extends Error {
  override readonly name = 'CodexRpcError';
  declare readonly agentError: AgentError;
  declare readonly providerCode: UncertainRpcCode;
  declare readonly certainty: 'unknown';

  // the brand, and `instanceof` answered by it (so by any copy of this package)
  static {
    RPC_ERROR.mark(this, isCodexRpcError);
  }

  constructor(providerCode: UncertainRpcCode, message: string) {
    const error = codexError('provider_unavailable', message, { providerCode });
    super(error.message);
    fixField(this, 'agentError', error);
    fixField(this, 'providerCode', providerCode);
    fixField(this, 'certainty', 'unknown');
  }
}

/** By brand, from any copy of this package, with its fields checked. Never throws. */
export function isCodexRpcError(value: unknown): value is CodexRpcError {
  return RPC_ERROR.recognises(value, (branded) => {
    const error = fixedField(branded, 'agentError');
    return (
      fixedField(branded, 'certainty') === 'unknown' &&
      (UNCERTAIN_RPC_CODES as readonly unknown[]).includes(fixedField(branded, 'providerCode')) &&
      Object.isFrozen(error) &&
      agentErrorSchema.safeParse(error).success
    );
  });
}

/**
 * True only when the request provably was not admitted. That is decided where the error is made
 * (a `ProviderRejection` is definite; a timeout or a lost connection is a `CodexRpcError`,
 * unknown) and read here from the error itself, never from its providerCode.
 */
export function isAuthoritativeFailure(err: unknown): boolean {
  return certaintyOf(err) === 'definite';
}

/** The `AgentError` a failed request carries (a rejection or a `CodexRpcError`), if any. */
export function agentErrorOf(error: unknown): AgentError | undefined {
  if (error === null || typeof error !== 'object' || !('agentError' in error)) return undefined;
  const inner = (error as { agentError?: unknown }).agentError;
  return inner !== null && typeof inner === 'object' ? (inner as AgentError) : undefined;
}
