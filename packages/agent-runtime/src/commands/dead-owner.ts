/**
 * A session whose owner died with commands queued, and which did not resume in the runtime
 * that noticed: that runtime takes its lease (when it has lapsed) and settles it as recovery
 * does at start, together with its commands, so that each is settled once and none waits on a
 * runtime that will never come. The lease is given back after: the session does not run here.
 */
import { isTerminal, SESSION_STATE_TABLE } from '@relvo-labs/agent-provider';
import { readSessionHistory } from '../history.js';
import { settleAbandoned } from '../recovery.js';
import type { EventWriter } from '../session/writer.js';
import type { EventStore } from '../store/types.js';
import { closedSession, type CommandRouter } from './router.js';

export async function settleDeadOwner(
  store: EventStore,
  writer: EventWriter,
  router: CommandRouter,
  sessionId: string,
): Promise<void> {
  if (store.takeOver === undefined || !(await store.takeOver(sessionId))) return;
  try {
    const summary = await store.getSession(sessionId);
    if (summary === undefined) return;
    const closed = isTerminal(SESSION_STATE_TABLE, summary.state);
    const resumes =
      !closed &&
      summary.state === 'ready' &&
      (await readSessionHistory(store, sessionId)).records.size > 0;
    // settled while this runtime still holds the lease: a closing append gives it up
    if (resumes) await router.owner.settleOrphans(sessionId);
    else await router.owner.settleAll(sessionId, closedSession());
    if (!closed) await settleAbandoned(store, writer, summary);
  } finally {
    await store.relinquish?.(sessionId);
  }
}
