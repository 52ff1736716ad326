import type { EventEnvelope } from '../envelope.js';
import { nextSummary, type StoredSession } from './types.js';

type Draft = { -readonly [K in keyof StoredSession]: StoredSession[K] };

/**
 * The summary of each session a batch touches, after the batch: the same checks and result as
 * `nextSummary` envelope by envelope (a `store_conflict` on a gap), but an envelope that only
 * moves the sequence on updates one draft per session instead of copying the summary. The
 * summaries returned are frozen.
 */
export function summariesAfter(
  batch: readonly EventEnvelope[],
  stored: (sessionId: string) => StoredSession | undefined,
): Map<string, StoredSession> {
  const drafts = new Map<string, Draft>();
  for (const envelope of batch) {
    const draft = drafts.get(envelope.sessionId);
    const type = envelope.payload.type;
    if (draft !== undefined && type !== 'session.opened' && type !== 'session.state_changed') {
      // what nextSummary would check and change for this envelope
      nextSequence(draft, envelope);
      continue;
    }
    const previous = draft ?? stored(envelope.sessionId);
    drafts.set(envelope.sessionId, { ...nextSummary(previous, envelope) });
  }
  // a summary handed to a host (listSessions) is never the store's to change afterwards
  for (const draft of drafts.values()) Object.freeze(draft);
  return drafts;
}

function nextSequence(draft: Draft, envelope: EventEnvelope): void {
  // a gap: nextSummary throws the same store_conflict it always has
  if (envelope.sequence !== draft.lastSequence + 1) nextSummary(draft, envelope);
  draft.lastSequence = envelope.sequence;
  draft.updatedAt = envelope.occurredAt;
}
