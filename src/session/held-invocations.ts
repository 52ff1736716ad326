/**
 * Tool activity for a command that waits for an approval (ADR-0014). codex announces such a
 * command (`item/started`, with no process yet: `processId: null`) before it asks for the
 * approval (recorded: item/started → requestApproval → the answer → item/completed), so its
 * `invoked` would come before any approval. It is held instead, and published when the host's
 * approval is written; a denial, a withdrawal or an unanswered request never publishes it.
 */
import type { ProviderEventInput } from '@relvo-labs/agent-provider';
import { CODEX_BRIDGED_APPROVAL } from '../protocol/vocabulary.js';
import type { ServerRequestOffer } from '../rpc/client.js';

/** As many as the registry can track at once; beyond it a command is simply not held. */
const MAX_HELD = 256;

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The command item of an `item/started` that codex has not started a process for yet. */
function unstartedCommand(params: unknown): string | undefined {
  const item = record(record(params)?.item);
  return item?.type === 'commandExecution' && item.processId === null && typeof item.id === 'string'
    ? item.id
    : undefined;
}

/** What the adapter answers when the host approves (`once`, `session`). */
function isApproval(result: unknown): boolean {
  const decision = record(result)?.decision;
  return decision === 'accept' || decision === 'acceptForSession';
}

export class HeldInvocations {
  readonly #held = new Map<string, ProviderEventInput>();

  /** `item/started`: true when its `invoked` is held until an approval. */
  hold(params: unknown, invoked: ProviderEventInput): boolean {
    const itemId = unstartedCommand(params);
    if (itemId === undefined || this.#held.size >= MAX_HELD) return false;
    this.#held.set(itemId, invoked);
    return true;
  }

  /** `item/completed`: a command that ends without an approval was never invoked. */
  forget(params: unknown): void {
    const itemId = record(record(params)?.item)?.id;
    if (typeof itemId === 'string') this.#held.delete(itemId);
  }

  /**
   * A command approval on its way to the host: the offer, observed so that the held `invoked`
   * is published right after an approval is written (never before, never for a denial).
   */
  observe(
    offer: ServerRequestOffer,
    publish: (event: ProviderEventInput) => void,
  ): ServerRequestOffer {
    const itemId =
      offer.method === CODEX_BRIDGED_APPROVAL ? record(offer.params)?.itemId : undefined;
    if (typeof itemId !== 'string' || !this.#held.has(itemId)) return offer;
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
