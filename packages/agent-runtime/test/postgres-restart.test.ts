/**
 * A follower (a subscription to a session another runtime writes) and a restart of the
 * PostgreSQL server while it is idle: it listens again and reads on from its last sequence, so
 * it sees every envelope exactly once; when the server stays down it ends with `store_io` after
 * its bounded waits. Small waits through the store's options keep this fast.
 */
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  isRuntimeError,
  openPostgresEventStore,
  type AgentRuntime,
  type EventEnvelope,
  type PostgresEventStoreOptions,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { usePgCluster } from './pg-suite.js';
import {
  history,
  onCleanup,
  settlesWithin,
  tempDir,
  TWO_SCRIPTED_PROFILES,
  until,
} from './support.js';

const server = usePgCluster();
let schemas = 0;

type Follow = Pick<PostgresEventStoreOptions, 'followRetries' | 'followRetryMs'>;

/** Two runtimes on one fresh schema: a writer and a follower with the given waits. */
async function writerAndFollower(follow: Follow) {
  const schema = `pr_${(schemas += 1)}`;
  const scripted = createScriptedProvider();
  const runtime = async (extra: Follow): Promise<AgentRuntime> => {
    const store = openPostgresEventStore({
      connectionString: server.cluster().connectionString,
      schema,
      ...extra,
    });
    const rt = await createAgentRuntime({
      providers: { scripted: () => scripted.provider },
      config: TWO_SCRIPTED_PROFILES,
      store,
    });
    onCleanup(() => rt.shutdown().catch(() => undefined));
    return rt;
  };
  const writer = await runtime({});
  const follower = await runtime(follow);
  // registered last, so it runs first: the runtimes shut down against a running server
  onCleanup(async () => {
    await server
      .cluster()
      .restart()
      .catch(() => undefined);
  });
  const session = await writer.openSession({ workspace: tempDir() });
  const turn = async (): Promise<void> => {
    const t = await session.submitTurn({ input: 'hello' });
    scripted.controller.drain();
    await t.done;
  };
  await turn();
  const seen: EventEnvelope[] = [];
  const following = (async () => {
    for await (const e of follower.subscribe(session.id)) seen.push(e);
  })().then(
    () => undefined,
    (e: unknown) => e,
  );
  const last = (await writer.store.getSession(session.id))?.lastSequence ?? 0;
  await until(() => seen.length === last, 'the follower caught up');
  return { writer, session, turn, seen, following };
}

describe.skipIf(server.skip !== undefined)('a follower and a PostgreSQL restart', () => {
  it('rides through an idle restart and sees every envelope once, in order', async () => {
    const { writer, session, turn, seen, following } = await writerAndFollower({
      followRetries: 12,
      followRetryMs: 50,
    });
    await server.cluster().halt();
    await server.cluster().restart();
    // more from the other runtime after the restart, then the end of the session
    await turn();
    await session.close();
    expect(await settlesWithin(following, 'the follower', 20_000)).toBeUndefined();
    const stored = await history(writer, session.id);
    expect(seen.map((e) => e.sequence)).toEqual(stored.map((e) => e.sequence));
    expect(seen.map((e) => e.eventId)).toEqual(stored.map((e) => e.eventId));
    expect(seen.at(-1)?.payload.type).toBe('session.closed');
    expect(seen.filter((e) => e.payload.type === 'turn.settled')).toHaveLength(2);
  }, 60_000);

  it('ends with store_io after its bounded waits when the server stays down', async () => {
    const { following } = await writerAndFollower({ followRetries: 3, followRetryMs: 100 });
    const t0 = performance.now();
    await server.cluster().halt();
    const ended = await settlesWithin(following, 'the follower', 10_000);
    const ms = performance.now() - t0;
    expect(isRuntimeError(ended) ? [ended.reason, ended.error.retryable] : ended).toEqual([
      'store_io',
      true,
    ]);
    // it waited 100 + 200 + 400 ms and tried again after each before giving up
    expect(ms).toBeGreaterThanOrEqual(700);
  }, 60_000);
});

if (server.skip !== undefined) {
  describe('a follower and a PostgreSQL restart', () => {
    it.skip(`skipped: ${server.skip}`, () => undefined);
  });
}
