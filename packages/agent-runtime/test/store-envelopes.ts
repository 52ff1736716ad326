/** Hand-made envelopes for store-level tests (no runtime in between). */
import { WIRE_VERSION } from '@relvo-labs/agent-provider';
import type { EventEnvelope, EventPayload } from '@relvo-labs/agent-runtime';

function envelope(
  sessionId: string,
  sequence: number,
  payload: EventPayload,
  runId?: string,
): EventEnvelope {
  return {
    eventId: `evt_${sessionId}_${sequence}`,
    sessionId,
    sequence,
    occurredAt: new Date(Date.UTC(2026, 0, 1) + sequence * 1_000).toISOString(),
    wireVersion: WIRE_VERSION,
    ...(runId === undefined ? {} : { runId }),
    payload,
  };
}

export function opened(sessionId: string, sequence: number): EventEnvelope {
  return envelope(sessionId, sequence, {
    type: 'session.opened',
    defaultProfile: 'a',
    workspace: { root: '/', ownership: 'borrowed' },
  });
}

export function stateChanged(sessionId: string, sequence: number, runId?: string): EventEnvelope {
  const payload = { type: 'session.state_changed', from: 'opening', to: 'ready' } as const;
  return envelope(sessionId, sequence, payload, runId);
}

/** The session's last event: closes it (and on a shared store frees its lease). */
export function closed(sessionId: string, sequence: number): EventEnvelope {
  return envelope(sessionId, sequence, { type: 'session.closed', reason: 'requested' });
}

export function messageDelta(
  sessionId: string,
  sequence: number,
  text: string,
  runId?: string,
): EventEnvelope {
  return envelope(sessionId, sequence, { type: 'run.message_delta', text }, runId);
}
