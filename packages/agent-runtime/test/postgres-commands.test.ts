/**
 * The PostgreSQL command table against the contract of store/commands.ts (ADR-0052), with two
 * stores on one schema as two runtimes would open them: only the lease holder accepts and
 * settles, each command settles once, a withdrawal wins only over a pending command, a change
 * in one store wakes the other, owners follow the database's lease clock, and a damaged row is
 * a typed error.
 */
import { isRuntimeError, openPostgresEventStore, type EventStore } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import type { CommandTable } from '../src/store/commands.js';
import { pgQuery, untilLeaseLapsed } from './pg-cluster.js';
import { usePgCluster } from './pg-suite.js';
import { closed, opened } from './store-envelopes.js';
import { onCleanup } from './support.js';

const server = usePgCluster();
let schemas = 0;

function pair(leaseMs = 30_000): { a: EventStore; b: EventStore; schema: string } {
  const schema = `pc_${String((schemas += 1))}`;
  const open = (): EventStore => {
    const store = openPostgresEventStore({
      connectionString: server.cluster().connectionString,
      schema,
      leaseMs,
    });
    onCleanup(() => store.close());
    return store;
  };
  return { a: open(), b: open(), schema };
}

function table(store: EventStore): CommandTable {
  if (store.commands === undefined) throw new Error('no command table');
  return store.commands;
}

async function reasonOf(p: Promise<unknown>): Promise<unknown> {
  const error = await p.then(
    () => 'resolved',
    (e: unknown) => e,
  );
  return isRuntimeError(error) ? error.reason : error;
}

const STEER = { kind: 'steer', input: 'more' };
const AT = '2026-12-05T00:00:00.000Z';

describe.skipIf(server.skip !== undefined)('PostgreSQL command table', () => {
  it('only the lease holder accepts and settles; each command settles once; withdrawal only while pending', async () => {
    const { a, b } = pair();
    await a.append([opened('ses_1', 1)]); // a holds the lease now
    const [ta, tb] = [table(a), table(b)];
    await tb.enqueue({ commandId: 'cmd_1', sessionId: 'ses_1', body: STEER, issuedAt: AT });
    await tb.enqueue({ commandId: 'cmd_2', sessionId: 'ses_1', body: STEER, issuedAt: AT });
    expect(
      await reasonOf(
        tb.enqueue({ commandId: 'cmd_1', sessionId: 'ses_1', body: {}, issuedAt: AT }),
      ),
    ).toBe('command_duplicate');
    expect(await reasonOf(tb.accept('cmd_1'))).toBe('session_leased');
    expect(await ta.accept('cmd_1')).toBe(true);
    expect(await ta.accept('cmd_1')).toBe(false);
    // accepted: a withdrawal loses, the holder's settlement wins once
    expect(await tb.settle('cmd_1', { outcome: 'withdrawn' })).toBe(false);
    expect(await reasonOf(tb.settle('cmd_1', { outcome: 'done' }))).toBe('session_leased');
    expect(await ta.settle('cmd_1', { outcome: 'done' })).toBe(true);
    expect(await ta.settle('cmd_1', { outcome: 'refused' })).toBe(false);
    // pending: the withdrawal wins, and the holder can no longer accept it
    expect(await tb.settle('cmd_2', { outcome: 'withdrawn' })).toBe(true);
    expect(await ta.accept('cmd_2')).toBe(false);
    const [one, two] = [await tb.get('cmd_1'), await tb.get('cmd_2')];
    expect([one?.state, one?.acceptedBy, one?.issuedBy, one?.settlement]).toEqual([
      'settled',
      ta.owner,
      tb.owner,
      { outcome: 'done' },
    ]);
    expect([two?.state, two?.acceptedBy, two?.settlement]).toEqual([
      'settled',
      undefined,
      { outcome: 'withdrawn' },
    ]);
    expect(await ta.unsettled('ses_1', 10)).toEqual([]);
    expect(await tb.get('cmd_missing')).toBeUndefined();
  });

  it('the acceptor settles a close after the close ended its lease, unless another runtime took the lease since', async () => {
    const { a, b, schema } = pair();
    await a.append([opened('ses_1', 1)]);
    const close = { kind: 'close' };
    await table(b).enqueue({ commandId: 'cmd_c', sessionId: 'ses_1', body: close, issuedAt: AT });
    await table(b).enqueue({ commandId: 'cmd_d', sessionId: 'ses_1', body: close, issuedAt: AT });
    expect(await table(a).accept('cmd_c')).toBe(true);
    expect(await table(a).accept('cmd_d')).toBe(true);
    await a.append([closed('ses_1', 2)]); // the closing append ends the lease
    expect(await table(a).settle('cmd_c', { outcome: 'done' })).toBe(true);
    // another runtime takes the (free) lease: the acceptor's late settlement is refused
    await pgQuery(
      server.cluster().connectionString,
      `UPDATE ${schema}.leases SET owner = 'other', token = token + 1,
       expires_at = clock_timestamp() + interval '1 minute' WHERE session_id = 'ses_1'`,
    );
    expect(await reasonOf(table(a).settle('cmd_d', { outcome: 'done' }))).toBe('lease_lost');
  });

  it("a change in one store wakes the other's watchers", async () => {
    const { a, b } = pair();
    let woken = 0;
    const stop = await table(a).watch(() => {
      woken += 1;
    });
    await table(b).enqueue({ commandId: 'cmd_w', sessionId: 'ses_9', body: STEER, issuedAt: AT });
    for (const deadline = Date.now() + 10_000; woken === 0;) {
      if (Date.now() > deadline) throw new Error('no wake-up');
      await new Promise((r) => setTimeout(r, 10));
    }
    stop();
    expect(woken).toBeGreaterThan(0);
  });

  it("owners follow the database's lease clock; a lapsed holder can neither accept nor settle", async () => {
    const { a, b, schema } = pair(400);
    await a.append([opened('ses_1', 1)]);
    expect(await table(a).ownerOf('ses_1')).toEqual({ owner: table(a).owner, self: true });
    expect(await table(b).ownerOf('ses_1')).toEqual({ owner: table(a).owner, self: false });
    expect([...(await table(b).owners()).keys()]).toEqual(['ses_1']);
    await table(b).enqueue({ commandId: 'cmd_l', sessionId: 'ses_1', body: STEER, issuedAt: AT });
    // the lease ends on the server (as if a stopped renewing and it lapsed)
    await pgQuery(
      server.cluster().connectionString,
      `UPDATE ${schema}.leases SET expires_at = clock_timestamp() WHERE session_id = 'ses_1'`,
    );
    await untilLeaseLapsed(server.cluster().connectionString, schema, 'ses_1');
    expect(await table(b).ownerOf('ses_1')).toBeUndefined();
    expect(await reasonOf(table(a).accept('cmd_l'))).toBe('lease_lost');
    expect((await table(b).get('cmd_l'))?.state).toBe('pending');
  });

  it('a damaged row is refused typed (log_corrupt), never trusted', async () => {
    const { a, schema } = pair();
    await table(a).enqueue({ commandId: 'cmd_d', sessionId: 'ses_1', body: STEER, issuedAt: AT });
    await pgQuery(
      server.cluster().connectionString,
      `UPDATE ${schema}.commands SET body = '[1, 2]' WHERE command_id = 'cmd_d'`,
    );
    expect(await reasonOf(table(a).get('cmd_d'))).toBe('log_corrupt');
    expect(await reasonOf(table(a).unsettled('ses_1', 5))).toBe('log_corrupt');
    await pgQuery(
      server.cluster().connectionString,
      `UPDATE ${schema}.commands SET body = '{"kind":' WHERE command_id = 'cmd_d'`,
    );
    expect(await reasonOf(table(a).get('cmd_d'))).toBe('log_corrupt');
  });

  it('commands recorded under schema version 2 (jsonb) read back the same after the move to JSON text', async () => {
    const schema = `pc_${String((schemas += 1))}`;
    const open = (migrateTo?: number): EventStore => {
      const store = openPostgresEventStore({
        connectionString: server.cluster().connectionString,
        schema,
        ...(migrateTo === undefined ? {} : { migrateTo }),
      });
      onCleanup(() => store.close());
      return store;
    };
    const old = open(2);
    await table(old).enqueue({
      commandId: 'cmd_v2',
      sessionId: 'ses_m',
      body: STEER,
      issuedAt: AT,
    });
    await table(old).settle('cmd_v2', { outcome: 'withdrawn' });
    await old.close();
    expect(await table(open()).get('cmd_v2')).toMatchObject({
      body: STEER,
      state: 'settled',
      settlement: { outcome: 'withdrawn' },
    });
  });

  it('unsettled is bounded and oldest first; a NUL inside a body is kept as it was', async () => {
    const { a } = pair();
    const nul = { kind: 'steer', input: 'a\u0000b' };
    for (const n of [1, 2, 3, 4])
      await table(a).enqueue({
        commandId: `cmd_${n}`,
        sessionId: 'ses_u',
        body: nul,
        issuedAt: AT,
      });
    await table(a).settle('cmd_1', { outcome: 'withdrawn' });
    const ids = async (limit: number): Promise<string[]> =>
      (await table(a).unsettled('ses_u', limit)).map((c) => c.commandId);
    expect(await ids(2)).toEqual(['cmd_2', 'cmd_3']);
    expect(await ids(10)).toEqual(['cmd_2', 'cmd_3', 'cmd_4']);
    expect((await table(a).get('cmd_2'))?.body).toEqual(nul);
  });
});
