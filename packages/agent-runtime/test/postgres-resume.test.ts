/**
 * `resumeSession` on a shared PostgreSQL store, in a runtime that was already running when the
 * session's owner died: while the owner holds the lease the session is refused
 * (`session_leased`) and nothing is written; once the lease is free the runtime takes the session
 * over, settles what the owner left open (once), and continues it.
 */
import {
  openPostgresEventStore,
  type AgentRuntime,
  type EventStore,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { createDurableProvider, type DurableControls } from './durable-provider.js';
import { usePgCluster } from './pg-suite.js';
import { testRecordKey } from './pg-cluster.js';
import { expectGapless, history, rejection, runtimeOnManual, tempDir, types } from './support.js';

const server = usePgCluster();
const runtimeOn = (store: EventStore, durable: DurableControls): Promise<AgentRuntime> =>
  runtimeOnManual(durable.provider, { store, closeGraceMs: 2_000 });

describe.skipIf(server.skip !== undefined)('PostgreSQL: resumeSession in a running runtime', () => {
  it('refused while the owner holds the lease; after it, taken over, the open run settled once, and continued', async () => {
    const store = (): EventStore =>
      openPostgresEventStore({
        connectionString: server.cluster().connectionString,
        schema: 'resume_live',
        leaseMs: 60_000,
        recordKey: testRecordKey('resume_live'),
      });
    const ownerStore = store();
    const owner = await runtimeOn(ownerStore, createDurableProvider());
    const session = await owner.openSession({ workspace: tempDir() });
    await session.submitTurn({ input: 'in flight' });

    const standbyProvider = createDurableProvider();
    const standby = await runtimeOn(store(), standbyProvider);
    expect(standby.resumableSessionIds).toEqual([]);
    const before = types(await history(standby, session.id));
    const refused = await rejection(standby.resumeSession(session.id));
    expect(refused.reason).toBe('session_leased');
    expect(types(await history(standby, session.id))).toEqual(before);
    expect(standbyProvider.resumed).toEqual([]);

    // the owner "dies": its store lets go without the runtime closing anything
    await ownerStore.close();
    const resumed = await standby.resumeSession(session.id);
    expect(standbyProvider.resumed).toHaveLength(1);
    const next = await resumed.submitTurn({ input: 'go on' });
    standbyProvider.manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    expect((await next.done).termination.outcome).toBe('succeeded');
    await resumed.close();

    const events = await history(standby, session.id);
    expectGapless(events);
    const finished = events.flatMap((e) =>
      e.payload.type === 'run.finished' ? [e.payload.termination] : [],
    );
    expect(finished).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        error: expect.objectContaining({
          details: { reason: 'outcome_unknown_after_crash' },
        }),
      }),
      expect.objectContaining({ outcome: 'succeeded' }),
    ]);
    expect(types(events).filter((t) => t === 'turn.settled')).toHaveLength(2);
    expect(types(events).at(-1)).toBe('session.closed');
  }, 60_000);
});

if (server.skip !== undefined) {
  describe('PostgreSQL: resumeSession in a running runtime', () => {
    it.skip(`skipped: ${server.skip}`, () => undefined);
  });
}
