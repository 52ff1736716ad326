/**
 * Tool activity for a command that waits for an approval (ADR-0014). codex announces such a
 * command (`item/started`, with no process yet: `processId: null`) before it asks for the
 * approval (recorded: item/started → requestApproval → the answer → item/completed), so its
 * `invoked` would come before any approval. It is held instead, and published when the host's
 * approval is written; a denial, a withdrawal or an unanswered request never publishes it.
 */
import type { ProviderEventInput } from '@relvo-labs/agent-provider';
import { CODEX_BRIDGED_APPROVAL } from '../protocol/wire-names.js';
import type { ServerRequestScope } from '../protocol/inbound.js';
import type { ServerRequestOffer } from '../rpc/client.js';

/** As many as the registry can track at once; beyond it a command is simply not held. */
const MAX_HELD = 256;

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}

/** What the adapter answers when the host approves (`once`, `session`). */
function isApproval(result: unknown): boolean {
  const decision = record(result)?.decision;
  return decision === 'accept' || decision === 'acceptForSession';
}

export class HeldInvocations {
  readonly #held = new Map<string, ProviderEventInput>();

  /**
   * `item/started` of a command codex has started no process for yet (decoded at the edge):
   * true when its `invoked` is held until an approval.
   */
  hold(itemId: string, invoked: ProviderEventInput): boolean {
    if (this.#held.size >= MAX_HELD) return false;
    this.#held.set(itemId, invoked);
    return true;
  }

  /** `item/completed`: a command that ends without an approval was never invoked. */
  forget(itemId: string): void {
    this.#held.delete(itemId);
  }

  /**
   * A command approval on its way to the host: the offer, observed so that the held `invoked`
   * is published right after an approval is written (never before, never for a denial).
   */
  observe(
    offer: ServerRequestOffer,
    scope: ServerRequestScope,
    publish: (event: ProviderEventInput) => void,
  ): ServerRequestOffer {
    const itemId = offer.method === CODEX_BRIDGED_APPROVAL ? scope.itemId : undefined;
    if (itemId === undefined || !this.#held.has(itemId)) return offer;
    const settle = (approved: boolean): void => {
      const invoked = this.#held.get(itemId);
      this.#held.delete(itemId);
      if (approved && invoked !== undefined) publish(invoked);
    };
    return {
      id: offer.id,
      method: offer.method,
      params: offer.params,
      respond: (result) => {
        const written = offer.respond(result);
        if (written) settle(isApproval(result));
        return written;
      },
      reject: (code, message) => {
        settle(false);
        return offer.reject(code, message);
      },
      retire: () => {
        settle(false);
        return offer.retire();
      },
    };
  }
}
