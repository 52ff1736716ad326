import {
  agentError,
  isTerminal,
  SESSION_STATE_TABLE,
  type AgentError,
  type InteractionSettlement,
} from '@relvo-labs/agent-provider';
import { isRuntimeError } from './errors.js';
import { readSessionHistory, type SessionHistory } from './history.js';
import { ANSWER_OUTCOME_UNKNOWN } from './session/answers.js';
import type { EventWriter } from './session/writer.js';
import { SessionLog } from './session/log.js';
import type { EventStore, StoredSession } from './store/types.js';

export const PROCESS_ENDED_ERROR: AgentError = agentError(
  'internal',
  'the runtime process ended while the session was open; it was not resumed',
  { details: { reason: 'runtime_process_ended' } },
);

/** A run in flight when its process died: whether the provider finished it is unknown. */
export const OUTCOME_UNKNOWN_ERROR: AgentError = agentError(
  'internal',
  'the runtime process ended during this run; its outcome is unknown',
  { details: { reason: 'outcome_unknown_after_crash' } },
);

export interface AbandonedSessions {
  /** Recorded as failed and closed. */
  readonly failed: readonly string[];
  /** Open work settled; the session stays `ready` and `resumeSession` continues it. */
  readonly resumable: readonly string[];
}

/**
 * Sessions whose runtime died without closing them. One whose provider left a recovery record
 * while it was `ready` becomes resumable: its pending interactions are cancelled and its open
 * runs and turns fail (their outcome is unknown), the session itself stays open. An interaction
 * whose answer was recorded for the provider settles `responded` with that answer, its outcome
 * unknown. Any other is
 * recorded as failed, never resumed silently. Runs once, when a runtime claims the store.
 */
export async function settleAbandonedSessions(
  store: EventStore,
  writer: EventWriter,
): Promise<AbandonedSessions> {
  const sessions = await store.listSessions();
  const failed: string[] = [];
  const resumable: string[] = [];
  for (const summary of sessions) {
    if (isTerminal(SESSION_STATE_TABLE, summary.state)) continue;
    const outcome = await settleAbandoned(store, writer, summary).catch((error: unknown) => {
      // a damaged log is its session's alone: the runtime starts and settles the others; the
      // session is left as it is, and reading or resuming it is refused (`log_corrupt`)
      if (isRuntimeError(error) && error.reason === 'log_corrupt') return 'damaged' as const;
      throw error;
    });
    if (outcome === 'failed') failed.push(summary.sessionId);
    if (outcome === 'resumable') resumable.push(summary.sessionId);
  }
  return { failed, resumable };
}

/**
 * One session a runtime finds open and does not run: on a shared store, taken over only when its
 * lease is free or lapsed (`leased`: a live runtime's, left alone), then settled as above.
 * Also what `resumeSession` does first for a session that was still leased when this runtime
 * claimed the store and whose owner has since died.
 */
export async function settleAbandoned(
  store: EventStore,
  writer: EventWriter,
  summary: StoredSession,
): Promise<'failed' | 'resumable' | 'leased' | 'closed'> {
  // on a shared store a session still leased by a live runtime is that runtime's, not ours
  if (store.takeOver !== undefined && !(await store.takeOver(summary.sessionId))) return 'leased';
  // read again under the lease: the previous owner may have appended until it lapsed
  const current =
    store.takeOver === undefined ? summary : await store.getSession(summary.sessionId);
  if (current === undefined || isTerminal(SESSION_STATE_TABLE, current.state)) return 'closed';
  const history = await readSessionHistory(store, current.sessionId);
  const resumes = current.state === 'ready' && history.records.size > 0;
  await settleOpenWork(writer, current, history, resumes);
  return resumes ? 'resumable' : 'failed';
}

async function settleOpenWork(
  writer: EventWriter,
  summary: StoredSession,
  work: SessionHistory,
  resumes: boolean,
): Promise<void> {
  const log = new SessionLog(writer, summary.sessionId, summary.lastSequence);
  appendSettlement(log, summary.state, work, resumes);
  await log.durable();
}

/**
 * Appends what settles a dead owner's open work to `log`: its pending interactions, runs and
 * turns; a session that does not resume is failed and closed too.
 */
export function appendSettlement(
  log: SessionLog,
  state: StoredSession['state'],
  work: SessionHistory,
  resumes: boolean,
): void {
  const at = log.stamp();
  const error = resumes ? OUTCOME_UNKNOWN_ERROR : PROCESS_ENDED_ERROR;
  for (const [interactionId, runId] of work.interactions) {
    // an answer recorded for the provider may have reached it: never `cancelled` (ADR-0046)
    const response = work.answered.get(interactionId);
    const settlement: InteractionSettlement =
      response === undefined
        ? { outcome: 'cancelled', settledAt: at }
        : { outcome: 'responded', settledAt: at, response, error: ANSWER_OUTCOME_UNKNOWN };
    log.append({ type: 'interaction.settled', interactionId, settlement }, runId);
  }
  for (const runId of work.runs.keys()) {
    log.append({ type: 'run.finished', termination: { outcome: 'failed', at, error } }, runId);
  }
  for (const turnId of work.turns)
    log.append({ type: 'turn.settled', turnId, state: 'failed', error });
  if (!resumes) {
    log.append({ type: 'session.state_changed', from: state, to: 'failed' });
    log.append({ type: 'session.closed', reason: 'failed', error });
  }
}
