/**
 * The PostgreSQL command table (store/commands.ts) on a real server, store against store as two
 * runtimes would use it: duplicates refused, acceptance and settlement fenced by the session's
 * lease, settled once, withdrawn only while pending, watched across stores, owners by the
 * database's clock, and damaged rows refused typed.
 */
import {
  isRuntimeError,
  openPostgresEventStore,
  type EventStore,
  type PostgresEventStoreOptions,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import type { CommandTable } from '../src/store/commands.js';
import { pgQuery, untilLeaseLapsed } from './pg-cluster.js';
import { usePgCluster } from './pg-suite.js';
import { closed, opened, stateChanged } from './store-envelopes.js';
import { onCleanup, until } from './support.js';

const server = usePgCluster();
let schemas = 0;

interface Db {
  readonly schema: string;
  open(): EventStore & { readonly commands: CommandTable };
}

/** Stores on one fresh schema, as separate runtimes would open them. */
function database(extra: Partial<PostgresEventStoreOptions> = {}): Db {
  const schema = `pc_${(schemas += 1)}`;
  return {
    schema,
    open() {
      const store = openPostgresEventStore({
        connectionString: server.cluster().connectionString,
        schema,
        ...extra,
      });
      onCleanup(() => store.close());
      const commands = store.commands;
      if (commands === undefined) throw new Error('the PostgreSQL store has no command table');
      return Object.assign(store, { commands });
    },
  };
}

function sql<R extends object>(text: string, params: unknown[] = []): Promise<R[]> {
  return pgQuery<R>(server.cluster().connectionString, text, params);
}

async function refusal(p: Promise<unknown>): Promise<unknown> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isRuntimeError(error)) return error;
  const { reason: _reason, ...details } = error.error.details ?? {};
  return [error.reason, details];
}

const at = '2026-01-01T00:00:00.000Z';
const body = { kind: 'interrupt' };
const done = { outcome: 'done' };
const withdrawn = { outcome: 'withdrawn' };

describe.skipIf(server.skip !== undefined)('PostgreSQL command table', () => {
  it('records a command pending under its issuer; a duplicate id is refused typed and the stored one stays', async () => {
    const db = database();
    const a = db.open();
    const b = db.open();
    expect(a.commands.owner).not.toBe(b.commands.owner);
    await a.commands.enqueue({ commandId: 'cmd_1', sessionId: 'ses_x', body, issuedAt: at });
    expect(
      await refusal(
        b.commands.enqueue({
          commandId: 'cmd_1',
          sessionId: 'ses_y',
          body: { kind: 'close' },
          issuedAt: at,
        }),
      ),
    ).toEqual(['store_conflict', { commandId: 'duplicate' }]);
    expect(await b.commands.get('cmd_1')).toEqual({
      commandId: 'cmd_1',
      sessionId: 'ses_x',
      body,
      issuedBy: a.commands.owner,
      issuedAt: at,
      state: 'pending',
    });
    expect(await b.commands.get('cmd_none')).toBeUndefined();
    // a NUL inside a string survives the round trip (JSON text, not jsonb)
    const nul = { kind: 'steer', input: 'a\u0000b' };
    await a.commands.enqueue({ commandId: 'cmd_2', sessionId: 'ses_x', body: nul, issuedAt: at });
    expect((await b.commands.get('cmd_2'))?.body).toEqual(nul);
  });

  it('only the lease holder accepts and settles, each once; anyone withdraws, only a pending command', async () => {
    const db = database();
    const owner = db.open();
    const other = db.open();
    await owner.append([opened('ses_o', 1)]);
    for (const id of ['cmd_a', 'cmd_b', 'cmd_c'])
      await other.commands.enqueue({ commandId: id, sessionId: 'ses_o', body, issuedAt: at });

    expect(await refusal(other.commands.accept('cmd_a'))).toEqual(['session_leased', {}]);
    expect(await owner.commands.accept('cmd_a')).toBe(true);
    expect(await owner.commands.accept('cmd_a')).toBe(false);
    expect(await other.commands.get('cmd_a')).toMatchObject({
      state: 'accepted',
      acceptedBy: owner.commands.owner,
    });
    // an accepted command is not withdrawn, nor settled by anyone but the holder
    expect(await other.commands.settle('cmd_a', withdrawn)).toBe(false);
    expect(await refusal(other.commands.settle('cmd_a', done))).toEqual(['session_leased', {}]);
    expect(await owner.commands.settle('cmd_a', { outcome: 'done', n: 1 })).toBe(true);
    expect(await owner.commands.settle('cmd_a', { outcome: 'done', n: 2 })).toBe(false);
    expect((await other.commands.get('cmd_a'))?.settlement).toEqual({ outcome: 'done', n: 1 });

    // withdrawn while pending: never accepted afterwards
    expect(await other.commands.settle('cmd_b', withdrawn)).toBe(true);
    expect(await owner.commands.accept('cmd_b')).toBe(false);
    expect(await owner.commands.settle('cmd_b', done)).toBe(false);
    expect(await other.commands.get('cmd_b')).toMatchObject({
      state: 'settled',
      settlement: withdrawn,
    });
    // the holder may settle a pending command directly (a malformed one is refused unaccepted)
    expect(await owner.commands.settle('cmd_c', { outcome: 'refused' })).toBe(true);
    expect(await owner.commands.unsettled('ses_o', 10)).toEqual([]);
  });

  it('a lease that lapsed accepts nothing any more; the runtime that takes the session over does', async () => {
    const db = database({ leaseMs: 300 });
    const stale = db.open(); // never claimed: nothing renews its lease
    const next = db.open();
    await stale.append([opened('ses_s', 1)]);
    await next.commands.enqueue({ commandId: 'cmd_1', sessionId: 'ses_s', body, issuedAt: at });
    await next.commands.enqueue({ commandId: 'cmd_2', sessionId: 'ses_s', body, issuedAt: at });
    expect(await stale.commands.accept('cmd_1')).toBe(true);
    await untilLeaseLapsed(server.cluster().connectionString, db.schema, 'ses_s');
    expect(await refusal(stale.commands.accept('cmd_2'))).toEqual(['lease_lost', {}]);
    expect(await refusal(stale.commands.settle('cmd_1', done))).toEqual(['lease_lost', {}]);
    expect(await next.takeOver?.('ses_s')).toBe(true);
    expect((await next.commands.unsettled('ses_s', 10)).map((c) => [c.commandId, c.state])).toEqual(
      [
        ['cmd_1', 'accepted'],
        ['cmd_2', 'pending'],
      ],
    );
    // the orphan the stale owner accepted is the taker-over's to settle, once
    expect(await next.commands.settle('cmd_1', { outcome: 'refused' })).toBe(true);
    expect(await next.commands.accept('cmd_2')).toBe(true);
    expect(await refusal(stale.commands.settle('cmd_2', done))).toEqual(['lease_lost', {}]);
  });

  it('the runtime that accepted a close settles it after the close released the lease', async () => {
    const db = database();
    const owner = db.open();
    const other = db.open();
    await owner.append([opened('ses_c', 1), stateChanged('ses_c', 2)]);
    await other.commands.enqueue({
      commandId: 'cmd_close',
      sessionId: 'ses_c',
      body,
      issuedAt: at,
    });
    await other.commands.enqueue({ commandId: 'cmd_late', sessionId: 'ses_c', body, issuedAt: at });
    expect(await owner.commands.accept('cmd_close')).toBe(true);
    await owner.append([closed('ses_c', 3)]);
    expect(await owner.commands.ownerOf('ses_c')).toBeUndefined();
    expect(await owner.commands.settle('cmd_close', done)).toBe(true);
    // nothing else it did not accept
    expect(await refusal(owner.commands.settle('cmd_late', done))).toEqual(['session_leased', {}]);
    expect(await refusal(owner.commands.accept('cmd_late'))).toEqual(['session_leased', {}]);
  });

  it('unsettled is bounded and oldest first', async () => {
    const db = database();
    const a = db.open();
    for (let i = 1; i <= 5; i += 1)
      await a.commands.enqueue({ commandId: `cmd_${i}`, sessionId: 'ses_u', body, issuedAt: at });
    await a.commands.enqueue({ commandId: 'cmd_other', sessionId: 'ses_v', body, issuedAt: at });
    await a.commands.settle('cmd_1', withdrawn);
    const ids = async (limit: number): Promise<string[]> =>
      (await a.commands.unsettled('ses_u', limit)).map((c) => c.commandId);
    expect(await ids(3)).toEqual(['cmd_2', 'cmd_3', 'cmd_4']);
    expect(await ids(10)).toEqual(['cmd_2', 'cmd_3', 'cmd_4', 'cmd_5']);
  });

  it("a change in one store wakes another store's watcher, until it stops watching", async () => {
    const db = database();
    const a = db.open();
    const b = db.open();
    await a.append([opened('ses_w', 1)]);
    let woken = 0;
    const stop = await b.commands.watch(() => {
      woken += 1;
    });
    await a.commands.enqueue({ commandId: 'cmd_1', sessionId: 'ses_w', body, issuedAt: at });
    await until(() => woken >= 1, 'a wake-up for the enqueue');
    const before = woken;
    expect(await a.commands.accept('cmd_1')).toBe(true);
    await until(() => woken > before, 'a wake-up for the acceptance');
    const accepted = woken;
    expect(await a.commands.settle('cmd_1', done)).toBe(true);
    await until(() => woken > accepted, 'a wake-up for the settlement');
    stop();
    const stopped = woken;
    await a.commands.enqueue({ commandId: 'cmd_2', sessionId: 'ses_w', body, issuedAt: at });
    // a watcher still listening sees the same notification: once it did, the stopped one had it
    let control = 0;
    const stopControl = await b.commands.watch(() => {
      control += 1;
    });
    await a.commands.enqueue({ commandId: 'cmd_3', sessionId: 'ses_w', body, issuedAt: at });
    await until(() => control >= 1, 'the control watcher');
    stopControl();
    expect(woken).toBe(stopped);
  });

  it('owners: the live lease holders by the database clock, self for this store; a lapsed lease has none', async () => {
    const db = database({ leaseMs: 300 });
    const a = db.open();
    const b = db.open();
    await a.append([opened('ses_1', 1)]);
    await b.append([opened('ses_2', 1)]);
    expect(await a.commands.ownerOf('ses_1')).toEqual({ owner: a.commands.owner, self: true });
    expect(await b.commands.ownerOf('ses_1')).toEqual({ owner: a.commands.owner, self: false });
    expect(await b.commands.ownerOf('ses_none')).toBeUndefined();
    expect(new Map(await b.commands.owners())).toEqual(
      new Map([
        ['ses_1', { owner: a.commands.owner, self: false }],
        ['ses_2', { owner: b.commands.owner, self: true }],
      ]),
    );
    await untilLeaseLapsed(server.cluster().connectionString, db.schema, 'ses_1');
    expect(await b.commands.ownerOf('ses_1')).toBeUndefined();
    expect([...(await b.commands.owners()).keys()]).not.toContain('ses_1');
  });

  it('a damaged row is refused typed (log_corrupt), never believed', async () => {
    const db = database();
    const a = db.open();
    for (const id of ['cmd_1', 'cmd_2', 'cmd_3'])
      await a.commands.enqueue({ commandId: id, sessionId: 'ses_d', body, issuedAt: at });
    await sql(`UPDATE ${db.schema}.commands SET body = '[1]' WHERE command_id = 'cmd_1'`);
    await sql(`UPDATE ${db.schema}.commands SET body = '{"kind":' WHERE command_id = 'cmd_2'`);
    await sql(
      `ALTER TABLE ${db.schema}.commands DROP CONSTRAINT commands_state_check;
       UPDATE ${db.schema}.commands SET state = 'bogus' WHERE command_id = 'cmd_3'`,
    );
    const corrupt = ['log_corrupt', { table: 'commands', damage: 'invalid' }];
    for (const id of ['cmd_1', 'cmd_2', 'cmd_3'])
      expect(await refusal(a.commands.get(id))).toEqual(corrupt);
    expect(await refusal(a.commands.unsettled('ses_d', 10))).toEqual(corrupt);
  });

  it('a closed store refuses every call typed', async () => {
    const db = database();
    const a = db.open();
    await a.close();
    expect(await refusal(a.commands.get('cmd_1'))).toEqual(['store_closed', {}]);
    expect(await refusal(a.commands.watch(() => undefined))).toEqual(['store_closed', {}]);
    expect(await refusal(a.commands.owners())).toEqual(['store_closed', {}]);
  });
});

if (server.skip !== undefined) {
  describe('PostgreSQL command table', () => {
    it.skip(`skipped: ${server.skip}`, () => undefined);
  });
}
