/**
 * Wire error classification (CODEX-BEHAVIOUR §4.2). A JSON-RPC error from the server becomes a
 * `ProviderRejection` naming the method and a classification token; the server's own message
 * and data are never published.
 */
import {
  agentError,
  isProviderRejection,
  ProviderRejection,
  type AgentErrorCode,
} from '@relvo-labs/agent-provider';
import { WIRE_CLASSIFICATIONS, type WireClassification } from '../shared/tokens.js';
import type { WireError } from './frames.js';

export interface WireErrorClass {
  readonly classification: WireClassification;
  readonly retryable: boolean;
  readonly agentCode: AgentErrorCode;
}

/** The table of §4.2, keyed by JSON-RPC error code. */
export const WIRE_ERROR_TABLE: ReadonlyMap<number, WireErrorClass> = new Map([
  [-32001, { classification: 'overloaded', retryable: true, agentCode: 'provider_unavailable' }],
  [-32600, { classification: 'invalid_request', retryable: false, agentCode: 'provider_rejected' }],
  [
    -32601,
    { classification: 'method_not_found', retryable: false, agentCode: 'provider_rejected' },
  ],
  [-32602, { classification: 'invalid_params', retryable: false, agentCode: 'provider_rejected' }],
  [
    -32603,
    { classification: 'internal_error', retryable: true, agentCode: 'provider_unavailable' },
  ],
  [-32700, { classification: 'parse_error', retryable: false, agentCode: 'provider_rejected' }],
]);

const UNCLASSIFIED: WireErrorClass = {
  classification: 'unclassified',
  retryable: false,
  agentCode: 'provider_rejected',
};

export function classifyWireErrorCode(code: number): WireErrorClass {
  return WIRE_ERROR_TABLE.get(code) ?? UNCLASSIFIED;
}

/**
 * The rejection for a wire error answering `method` (one of the adapter's own method names).
 * Only the numeric code is read from the body.
 */
export function wireRejection(method: string, error: Pick<WireError, 'code'>): ProviderRejection {
  const { classification, agentCode } = classifyWireErrorCode(error.code);
  return new ProviderRejection(
    agentError(agentCode, `codex rejected ${method} (${classification})`, {
      providerCode: classification,
    }),
  );
}

const AUTHORITATIVE_CODES: ReadonlySet<string> = new Set<string>([
  ...WIRE_CLASSIFICATIONS,
  'connection_closed',
]);

/**
 * True only when the request provably was not admitted: a `ProviderRejection` carrying a wire
 * classification or `connection_closed`. Timeouts, lost connections and anything else are
 * uncertain.
 */
export function isAuthoritativeFailure(err: unknown): boolean {
  if (!isProviderRejection(err)) return false;
  const code = err.agentError.providerCode;
  return code !== undefined && AUTHORITATIVE_CODES.has(code);
}
