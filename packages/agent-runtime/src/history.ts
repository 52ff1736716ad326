import type {
  AgentInteraction,
  InteractionResponse,
  ProviderRecoveryRecord,
} from '@relvo-labs/agent-provider';
import type { PayloadOf } from './envelope.js';
import type { EventStore } from './store/types.js';

const PAGE = 512;

/** What one session's stored history says, read once: its opening, open work, recovery records. */
export interface SessionHistory {
  opened: PayloadOf<'session.opened'> | undefined;
  readonly turns: Set<string>;
  /** Open runs: runId → turnId. */
  readonly runs: Map<string, string>;
  /** Pending interactions: interactionId → runId. */
  readonly interactions: Map<string, string | undefined>;
  /** The same pending interactions, whole, in the order they were raised. */
  readonly pending: Map<string, AgentInteraction>;
  /** Of those, the ones with an answer recorded for the provider: the latest answer. */
  readonly answered: Map<string, InteractionResponse>;
  /** The latest recovery record per profile. */
  readonly records: Map<string, ProviderRecoveryRecord>;
  /** The MAC each of those carries (ADR-0050), when it carries one. */
  readonly macs: Map<string, string | undefined>;
}

export async function readSessionHistory(
  store: EventStore,
  sessionId: string,
): Promise<SessionHistory> {
  const h: SessionHistory = {
    opened: undefined,
    turns: new Set(),
    runs: new Map(),
    interactions: new Map(),
    pending: new Map(),
    answered: new Map(),
    records: new Map(),
    macs: new Map(),
  };
  for (let from = 1; ;) {
    const page = await store.read(sessionId, { fromSequence: from, limit: PAGE });
    for (const e of page) {
      const p = e.payload;
      if (p.type === 'session.opened') h.opened = p;
      else if (p.type === 'session.recovery_recorded') {
        h.records.set(p.profile, p.record);
        h.macs.set(p.profile, p.mac);
      } else if (p.type === 'turn.started') h.turns.add(p.turnId);
      else if (p.type === 'turn.settled') h.turns.delete(p.turnId);
      else if (p.type === 'run.started' && e.runId !== undefined) h.runs.set(e.runId, p.turnId);
      else if (p.type === 'run.finished' && e.runId !== undefined) h.runs.delete(e.runId);
      else if (p.type === 'interaction.requested') {
        h.interactions.set(p.interactionId, e.runId);
        if (e.runId !== undefined) {
          h.pending.set(p.interactionId, {
            interactionId: p.interactionId,
            sessionId,
            turnId: p.turnId,
            runId: e.runId,
            status: 'pending',
            request: p.request,
            requestedAt: e.occurredAt,
            ...(p.expiresAt === undefined ? {} : { expiresAt: p.expiresAt }),
          });
        }
      } else if (p.type === 'interaction.answered') h.answered.set(p.interactionId, p.response);
      else if (p.type === 'interaction.settled') {
        h.interactions.delete(p.interactionId);
        h.pending.delete(p.interactionId);
        h.answered.delete(p.interactionId);
      }
    }
    const last = page.at(-1);
    if (last === undefined || page.length < PAGE) return h;
    from = last.sequence + 1;
    // an embedded store settles at once: a long history must not hold the event loop
    await new Promise((resolve) => setImmediate(resolve));
  }
}
