/**
 * What only the PostgreSQL store does (the shared contract is store-contract.test.ts): session
 * leases with fencing tokens, subscriptions that follow another runtime's appends, its schema
 * versions, and errors that never carry the connection string.
 */
import {
  isRuntimeError,
  openPostgresEventStore,
  type EventStore,
  type PostgresEventStoreOptions,
} from '@relvo-labs/agent-runtime';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PG_LATEST_SCHEMA_VERSION } from '../src/store/postgres-schema.js';
import { pgQuery, untilLeaseLapsed } from './pg-cluster.js';
import { usePgCluster } from './pg-suite.js';
import { closed, opened, stateChanged } from './store-envelopes.js';
import { expectReaderFollowsWriter } from './store-follow.js';
import { onCleanup, until } from './support.js';

const server = usePgCluster();
const pgSkip = server.skip;
let schemas = 0;

function url(): string {
  return server.cluster().connectionString;
}

/** Stores on one fresh schema, as separate runtimes would open them. */
function database(extra: Partial<PostgresEventStoreOptions> = {}): () => EventStore {
  const schema = `ps_${(schemas += 1)}`;
  return () => {
    const store = openPostgresEventStore({ connectionString: url(), schema, ...extra });
    onCleanup(() => store.close());
    return store;
  };
}

function sql<R extends object>(text: string, params: unknown[] = []): Promise<R[]> {
  return pgQuery<R>(server.cluster().connectionString, text, params);
}

async function reasonOf(p: Promise<unknown>): Promise<unknown> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  return isRuntimeError(error) ? error.reason : error;
}

/** Bounded: until the database's own clock says no live lease is left on the session. */
function untilLapsed(schema: string, sessionId: string): Promise<void> {
  return untilLeaseLapsed(server.cluster().connectionString, schema, sessionId);
}

describe.skipIf(pgSkip !== undefined)('PostgreSQL event store', () => {
  it('one owner per session: another runtime is refused until the lease lapses, then the stale owner is fenced off', async () => {
    const open = database({ leaseMs: 300 });
    const a = open(); // never claimed: no heartbeat renews its lease
    const b = open();
    await a.append([opened('ses_l', 1), stateChanged('ses_l', 2)]);
    expect(await reasonOf(b.append([stateChanged('ses_l', 3)]))).toBe('session_leased');
    expect(await b.takeOver?.('ses_l')).toBe(false);

    await untilLapsed(`ps_${schemas}`, 'ses_l');
    // lapsed and not yet taken over: still refused, the owner's view may be stale
    expect(await reasonOf(a.append([stateChanged('ses_l', 3)]))).toBe('lease_lost');
    expect(await b.takeOver?.('ses_l')).toBe(true);
    await b.append([stateChanged('ses_l', 3)]);
    expect(await reasonOf(a.append([stateChanged('ses_l', 4)]))).toBe('lease_lost');
    const tokens = await sql<{ token: string }>(
      `SELECT token::text AS token FROM ps_${schemas}.leases WHERE session_id = 'ses_l'`,
    );
    expect(tokens).toEqual([{ token: '2' }]);
    const stored = await b.read('ses_l', { fromSequence: 1, limit: 10 });
    expect(stored.map((e) => e.sequence)).toEqual([1, 2, 3]);
  });

  it('a claimed store renews its leases; closing a session frees its lease at once', async () => {
    const open = database({ leaseMs: 300 });
    const a = open();
    await a.claim();
    const b = open();
    await a.append([opened('ses_r', 1)]);
    const expiry = async (): Promise<number> =>
      (
        await sql<{ ms: number }>(
          `SELECT extract(epoch FROM expires_at) * 1000 AS ms FROM ps_${schemas}.leases`,
        )
      )[0]?.ms ?? 0;
    const first = await expiry();
    for (const deadline = Date.now() + 5_000; (await expiry()) <= first;) {
      if (Date.now() > deadline) throw new Error('the lease was not renewed within 5 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await b.takeOver?.('ses_r')).toBe(false);
    await a.append([closed('ses_r', 2)]);
    expect(await b.takeOver?.('ses_r')).toBe(true);
  });

  it("a runtime's subscription follows a session another runtime writes, live, to session.closed", async () => {
    const open = database();
    await expectReaderFollowsWriter(open(), open());
  });

  it('NOTIFY carries the session id and sequence only', async () => {
    const open = database();
    const store = open();
    await store.claim();
    const client = new pg.Client({ connectionString: url() });
    await client.connect();
    onCleanup(() => client.end());
    const payloads: string[] = [];
    client.on('notification', (n) => payloads.push(`${n.channel}|${n.payload ?? ''}`));
    await client.query(`LISTEN "ps_${schemas}_appended"`);
    await store.append([opened('ses_n', 1), stateChanged('ses_n', 2)]);
    await until(() => payloads.length > 0, 'a notification');
    expect(payloads).toEqual([`ps_${schemas}_appended|ses_n 2`]);
  });

  it('creates its schema at the latest version; refuses a newer or foreign one untouched', async () => {
    const open = database();
    await open().claim();
    const schema = `ps_${schemas}`;
    expect(await sql(`SELECT application, version FROM ${schema}.meta`)).toEqual([
      { application: 'relvo-event-store', version: PG_LATEST_SCHEMA_VERSION },
    ]);
    await sql(`UPDATE ${schema}.meta SET version = $1`, [PG_LATEST_SCHEMA_VERSION + 1]);
    const newer = open();
    expect(await reasonOf(newer.claim())).toBe('store_newer_schema');
    expect(await reasonOf(newer.read('x', { fromSequence: 1, limit: 1 }))).toBe(
      'store_newer_schema',
    );

    await sql('CREATE SCHEMA other; CREATE TABLE other.customers (id int)');
    const foreign = openPostgresEventStore({ connectionString: url(), schema: 'other' });
    onCleanup(() => foreign.close());
    expect(await reasonOf(foreign.claim())).toBe('store_foreign');
    expect(
      await sql(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'other'`),
    ).toEqual([{ table_name: 'customers' }]);
  });

  it('never repeats the connection string or its password in an error', async () => {
    const secret = 'hunter2-do-not-echo';
    const bad = `postgresql://relvo:${secret}@localhost/no_such_db?host=${encodeURIComponent(
      server.cluster().socketDir,
    )}`;
    const store = openPostgresEventStore({ connectionString: bad, connectTimeoutMs: 2_000 });
    onCleanup(() => store.close());
    const error = await store.claim().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isRuntimeError(error) && [error.code, error.reason]).toEqual([
      'store_unavailable',
      'store_io',
    ]);
    const shown = JSON.stringify([
      String(error),
      (error as Error).cause,
      isRuntimeError(error) && error.error,
    ]);
    expect(shown).not.toContain(secret);
    expect(shown).not.toContain('no_such_db');
    expect(isRuntimeError(error) && error.error.details).toMatchObject({ sqlState: '3D000' });
  });

  it('names refused options, never their values', () => {
    const refused = (options: unknown): unknown => {
      try {
        openPostgresEventStore(options as PostgresEventStoreOptions);
      } catch (error) {
        return isRuntimeError(error) ? [error.reason, error.message] : error;
      }
      return 'opened';
    };
    const [reason, message] = refused({
      connectionString: 'postgresql://u:pw-secret@h/d',
      schema: 'Bad-Name',
    }) as string[];
    expect(reason).toBe('option_invalid');
    expect(message).toContain('schema');
    expect(message).not.toContain('pw-secret');
    expect(refused({})).toEqual(['option_invalid', expect.stringContaining('connectionString')]);
    expect(refused({ connectionString: 'x', leaseMs: 5 })).toEqual([
      'option_invalid',
      expect.stringContaining('leaseMs'),
    ]);
    expect(refused({ connectionString: 'x', bogus: 1 })).toEqual([
      'option_invalid',
      expect.stringContaining('bogus'),
    ]);
  });
});

if (pgSkip !== undefined) {
  describe('PostgreSQL event store', () => {
    it.skip(`skipped: ${pgSkip}`, () => undefined);
  });
}
