/**
 * Leases follow write health (real PostgreSQL, hand-driven provider): a runtime whose store
 * cannot write gives its sessions up within one lease period, and a runtime that loses a lease
 * ends the session's readers with `lease_lost` and disposes its provider session at once.
 */
import {
  isRuntimeError,
  openPostgresEventStore,
  type AgentRuntime,
  type EventStore,
} from '@relvo-labs/agent-runtime';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createManualProvider, type ManualProviderControls } from './manual-provider.js';
import { pgQuery } from './pg-cluster.js';
import { usePgCluster } from './pg-suite.js';
import { closed as closedEnvelope } from './store-envelopes.js';
import { onCleanup, rejection, runtimeOnManual, settlesWithin, tempDir, until } from './support.js';

const server = usePgCluster();
const LEASE_MS = 600;

function sql<R extends object>(text: string, params: unknown[] = []): Promise<R[]> {
  return pgQuery<R>(server.cluster().connectionString, text, params);
}

/** The cluster's connection string for another role (trust auth). */
function urlAs(role: string): string {
  return server.cluster().connectionString.replace('//relvo@', `//${role}@`);
}

function store(options: {
  schema: string;
  url?: string;
  pool?: pg.Pool;
  leaseMs?: number;
}): EventStore {
  const s = openPostgresEventStore({
    ...(options.pool === undefined
      ? { connectionString: options.url ?? server.cluster().connectionString }
      : { pool: options.pool }),
    schema: options.schema,
    leaseMs: options.leaseMs ?? LEASE_MS,
  });
  onCleanup(() => s.close());
  return s;
}

async function runtimeOn(s: EventStore): Promise<[AgentRuntime, ManualProviderControls]> {
  const manual = createManualProvider();
  const runtime = await runtimeOnManual(manual.provider, { store: s, closeGraceMs: 2_000 });
  return [runtime, manual];
}

/** How a subscription ended: `'ended'` or the reason of its typed error. */
async function ending(events: AsyncIterable<unknown>): Promise<string> {
  try {
    for await (const _ of events) continue;
    return 'ended';
  } catch (error) {
    return isRuntimeError(error) ? error.reason : 'untyped';
  }
}

/** A session with a run in flight, its provider session and a reader that records its end. */
async function busySession(runtime: AgentRuntime, manual: ManualProviderControls) {
  const session = await runtime.openSession({ workspace: tempDir() });
  const index = manual.sessions.length;
  const turn = await session.submitTurn({ input: 'work' });
  await until(() => manual.sessions[index]?.runs.length === 1, 'the run');
  const provider = manual.sessions[index]!;
  let ended: string | undefined;
  void ending(session.subscribe()).then((e) => (ended = e));
  return { session, turn, provider, ended: () => ended };
}

/** Polls another store's takeover (bounded); resolves with the ms it took. */
async function takenOverAfter(other: EventStore, sessionId: string): Promise<number> {
  const started = performance.now();
  while (!(await other.takeOver!(sessionId))) {
    if (performance.now() - started > 10 * LEASE_MS) throw new Error('never taken over');
    await new Promise((r) => setTimeout(r, 10));
  }
  return performance.now() - started;
}

describe.skipIf(server.skip !== undefined)('PostgreSQL: leases follow write health', () => {
  it('an owner whose writes fail for good gives its sessions up within one lease period; their readers end typed and their providers are disposed', async () => {
    const schema = server.schema('lh');
    const role = `writer_${schema}`;
    const other = store({ schema });
    await other.listSessions(); // creates the schema
    await sql(`CREATE ROLE ${role} LOGIN`);
    await sql(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
    await sql(`GRANT CREATE ON DATABASE postgres TO ${role}`);
    await sql(`GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
    const [runtime, manual] = await runtimeOn(store({ schema, url: urlAs(role) }));
    const busy = await busySession(runtime, manual);
    // an idle session: its turn is over, its provider session stays open for the next
    const idle = await busySession(runtime, manual);
    idle.provider.runs[0]!.complete({ outcome: 'succeeded' });
    await idle.turn.done;
    await until(() => idle.session.activeRunId === undefined, 'the settled turn');

    // the owner can no longer write events; its lease renewals alone would still succeed
    await sql(`REVOKE INSERT ON ${schema}.events FROM ${role}`);
    const revokedAt = performance.now();
    expect(await other.takeOver!(busy.session.id)).toBe(false);
    expect(await other.takeOver!(idle.session.id)).toBe(false);
    busy.provider.runs[0]!.sink.emit({ payload: { type: 'run.message_delta', text: 'lost' } });
    await until(() => busy.ended() !== undefined, 'the busy reader');
    expect(busy.ended()).toBe('store_io');
    // the session whose append failed is given up at once; the idle one, which never tried to
    // write, lapses unrenewed since the heartbeat's probe write fails
    const busyMs = await takenOverAfter(other, busy.session.id);
    expect(busyMs).toBeLessThan(LEASE_MS);
    await takenOverAfter(other, idle.session.id);
    const idleMs = performance.now() - revokedAt;
    expect(idleMs).toBeLessThan(LEASE_MS + LEASE_MS / 2);
    await until(() => idle.ended() !== undefined, 'the idle reader', 2 * LEASE_MS);
    expect(idle.ended()).toBe('lease_lost');
    expect(busy.provider.disposeCalls).toBe(1);
    expect(idle.provider.disposeCalls).toBe(1);
    expect((await busy.turn.done).turnState).toBe('failed');
    expect((await rejection(idle.session.submitTurn({ input: 'more' }))).reason).toBe('lease_lost');
    expect(manual.sessions).toHaveLength(2);
  });

  it('a renewal that finds the lease taken over ends the readers with lease_lost and disposes the provider session at once; a new reader follows the new owner', async () => {
    const schema = server.schema('lh');
    const [runtime, manual] = await runtimeOn(store({ schema }));
    const other = store({ schema });
    const busy = await busySession(runtime, manual);
    let followerEnded: string | undefined;
    void ending(runtime.subscribe(busy.session.id)).then((e) => (followerEnded = e));
    // as if the owner had been paused past its lease: it lapses and another runtime takes it
    await sql(`UPDATE ${schema}.leases SET expires_at = clock_timestamp() WHERE session_id = $1`, [
      busy.session.id,
    ]);
    const takenAt = performance.now();
    expect(await other.takeOver!(busy.session.id)).toBe(true);
    const stored = await other.read(busy.session.id, { fromSequence: 1, limit: 1_000 });

    await until(() => busy.provider.disposeCalls > 0, 'the dispose', 2 * LEASE_MS);
    // the heartbeat ticks every third of the lease period
    expect(performance.now() - takenAt).toBeLessThan(LEASE_MS);
    await until(() => busy.ended() !== undefined && followerEnded !== undefined, 'the readers');
    expect(busy.ended()).toBe('lease_lost');
    expect(followerEnded).toBe('lease_lost');
    expect(busy.provider.disposeCalls).toBe(1);
    // the run the provider settled on dispose is failed here: nothing more of it was recorded
    expect((await busy.turn.done).termination.outcome).not.toBe('succeeded');
    busy.provider.runs[0]!.sink.emit({ payload: { type: 'run.message_delta', text: 'late' } });
    const after = await other.read(busy.session.id, { fromSequence: 1, limit: 1_000 });
    expect(after).toEqual(stored);
    // a new reader here follows the session's new owner through the store, to its end
    const last = after.length;
    const followed: number[] = [];
    const following = (async () => {
      for await (const e of runtime.subscribe(busy.session.id)) followed.push(e.sequence);
    })();
    await until(() => followed.length === last, 'the replay');
    await other.append([closedEnvelope(busy.session.id, last + 1)]);
    await settlesWithin(following, 'the follower');
    expect(followed).toEqual(Array.from({ length: last + 1 }, (_, i) => i + 1));
    expect((await rejection(busy.session.close())).reason).toBe('lease_lost');
  });

  it('a lease whose renewal cannot be confirmed (the store lost its database) is lost locally, its provider disposed before the lease lapses on the server', async () => {
    const schema = server.schema('lh');
    // longer here: the local deadline comes a tenth of it before the server's expiry
    const leaseMs = 1_500;
    const pool = new pg.Pool({ connectionString: server.cluster().connectionString });
    pool.on('error', () => undefined);
    onCleanup(() => pool.end().catch(() => undefined));
    const [runtime, manual] = await runtimeOn(store({ schema, pool, leaseMs }));
    const other = store({ schema });
    // idle: nothing appends, so only the heartbeat can notice
    const busy = await busySession(runtime, manual);
    busy.provider.runs[0]!.complete({ outcome: 'succeeded' });
    await busy.turn.done;
    await until(() => busy.session.activeRunId === undefined, 'the settled turn');
    // not awaited: end() resolves only once every client is back, and the runtime's LISTEN
    // connection (commands, ADR-0052) stays out until it fails; no new connection is made
    void pool.end();
    const endedAt = performance.now();
    await until(() => busy.provider.disposeCalls > 0, 'the dispose', 3 * leaseMs);
    // the server and this process share the machine's clock
    const disposedAt = Date.now();
    expect(performance.now() - endedAt).toBeLessThan(leaseMs);
    const [row] = await sql<{ expires: number }>(
      `SELECT extract(epoch FROM expires_at) * 1000 AS expires FROM ${schema}.leases
       WHERE session_id = $1`,
      [busy.session.id],
    );
    expect(disposedAt).toBeLessThan(Number(row?.expires));
    await until(() => busy.ended() !== undefined, 'the reader');
    expect(busy.ended()).toBe('lease_lost');
    // another runtime gets the session once the server's clock lets the lease lapse
    await takenOverAfter(other, busy.session.id);
    expect(performance.now() - endedAt).toBeLessThan(leaseMs + leaseMs / 2);
  });
});

if (server.skip !== undefined) {
  describe('PostgreSQL: leases follow write health', () => {
    it.skip(`skipped: ${server.skip}`, () => undefined);
  });
}
