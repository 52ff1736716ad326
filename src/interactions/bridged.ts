/**
 * What every bridge hands the registry: the neutral request, who owns it, how an answer becomes
 * the one native reply, and the reply that releases it unanswered (retirement, withdrawal).
 */
import type {
  ApprovalRequest,
  QuestionSetRequest,
  ToolCallRequest,
} from '@relvo-labs/agent-provider';
import type { ApprovalRefusalToken, InteractionCorrelation } from './native-approval.js';
import type { ToolCallRefusalToken } from './native-tool-call.js';
import type { QuestionRefusalToken } from './native-question.js';
import type { SettlementPlan } from './settlement.js';

/** The refusal tokens every bridge has: a request that does not parse, or a detail too long to show. */
export type BridgeRefusal = 'malformed' | 'detail_too_large';

export type RefusalToken = ApprovalRefusalToken | QuestionRefusalToken | ToolCallRefusalToken;

export interface BridgedInteraction {
  readonly request: ApprovalRequest | QuestionSetRequest | ToolCallRequest;
  readonly correlation: InteractionCorrelation;
  /** Validates a neutral response and decides the native reply; consumes nothing. */
  readonly settle: (response: unknown) => SettlementPlan<unknown>;
  /** Sent when the request is retired unanswered: a denial, never a grant. */
  readonly release: unknown;
  /**
   * Sent instead of `release` when the session itself is disposed: a denial that also ends the
   * turn, so a codex being torn down (perhaps by a host that lost its lease) asks the model
   * nothing more in the moments before it exits. Absent where codex has no such reply.
   */
  readonly abandon?: unknown;
}

export type BridgeTranslation =
  | { readonly ok: true; readonly interaction: BridgedInteraction }
  | {
      readonly ok: false;
      readonly token: RefusalToken;
      /** Sent as the request's result instead of an error (a host tool's failure). */
      readonly reply?: unknown;
    };

/** A translation that raises `request`, answered through `settle`, released with `release`. */
export function bridged(
  request: BridgedInteraction['request'],
  correlation: InteractionCorrelation,
  settle: BridgedInteraction['settle'],
  release: unknown,
  abandon?: unknown,
): BridgeTranslation {
  const interaction = { request, correlation, settle, release };
  return {
    ok: true,
    interaction: abandon === undefined ? interaction : { ...interaction, abandon },
  };
}
