import {
  agentError,
  isTerminal,
  SESSION_STATE_TABLE,
  type AgentError,
} from '@relvo-labs/agent-provider';
import type { EventWriter } from './session/log.js';
import { SessionLog } from './session/log.js';
import type { EventStore, StoredSession } from './store/types.js';

const PAGE = 512;

/** What a session that died left open, found by reading its history once. */
interface OpenWork {
  readonly turns: Set<string>;
  readonly runs: Map<string, string>;
  readonly interactions: Map<string, string | undefined>;
}

async function openWorkOf(store: EventStore, sessionId: string): Promise<OpenWork> {
  const work: OpenWork = { turns: new Set(), runs: new Map(), interactions: new Map() };
  for (let from = 1; ;) {
    const page = await store.read(sessionId, { fromSequence: from, limit: PAGE });
    for (const e of page) {
      const p = e.payload;
      if (p.type === 'turn.started') work.turns.add(p.turnId);
      else if (p.type === 'turn.settled') work.turns.delete(p.turnId);
      else if (p.type === 'run.started' && e.runId !== undefined) work.runs.set(e.runId, p.turnId);
      else if (p.type === 'run.finished' && e.runId !== undefined) work.runs.delete(e.runId);
      else if (p.type === 'interaction.requested') work.interactions.set(p.interactionId, e.runId);
      else if (p.type === 'interaction.settled') work.interactions.delete(p.interactionId);
    }
    const last = page.at(-1);
    if (last === undefined || page.length < PAGE) return work;
    from = last.sequence + 1;
  }
}

export const PROCESS_ENDED_ERROR: AgentError = agentError(
  'internal',
  'the runtime process ended while the session was open; it was not resumed',
  { details: { reason: 'runtime_process_ended' } },
);

/**
 * A session whose runtime died without closing it is recorded as failed, never resumed
 * silently: its pending interactions are cancelled, its open runs and turns fail, then the
 * session fails and closes. Runs once, when a runtime claims the store.
 */
export async function failAbandonedSessions(
  store: EventStore,
  writer: EventWriter,
): Promise<readonly string[]> {
  const sessions = await store.listSessions();
  const open = sessions.filter((s) => !isTerminal(SESSION_STATE_TABLE, s.state));
  const abandoned: StoredSession[] = [];
  for (const summary of open) {
    // on a shared store a session still leased by a live runtime is that runtime's, not ours
    if (store.takeOver !== undefined && !(await store.takeOver(summary.sessionId))) continue;
    // read again under the lease: the previous owner may have appended until it lapsed
    const current =
      store.takeOver === undefined ? summary : await store.getSession(summary.sessionId);
    if (current === undefined || isTerminal(SESSION_STATE_TABLE, current.state)) continue;
    await failSession(store, writer, current);
    abandoned.push(current);
  }
  return abandoned.map((s) => s.sessionId);
}

async function failSession(
  store: EventStore,
  writer: EventWriter,
  summary: StoredSession,
): Promise<void> {
  const work = await openWorkOf(store, summary.sessionId);
  const log = new SessionLog(writer, summary.sessionId, summary.lastSequence);
  const at = new Date(writer.clock.now()).toISOString();
  const error = PROCESS_ENDED_ERROR;
  for (const [interactionId, runId] of work.interactions) {
    log.append(
      {
        type: 'interaction.settled',
        interactionId,
        settlement: { outcome: 'cancelled', settledAt: at },
      },
      runId,
    );
  }
  for (const runId of work.runs.keys()) {
    log.append({ type: 'run.finished', termination: { outcome: 'failed', at, error } }, runId);
  }
  for (const turnId of work.turns)
    log.append({ type: 'turn.settled', turnId, state: 'failed', error });
  log.append({ type: 'session.state_changed', from: summary.state, to: 'failed' });
  log.append({ type: 'session.closed', reason: 'failed', error });
  await log.durable();
}
