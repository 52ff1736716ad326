import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { EventEnvelope } from '../envelope.js';
import { isRuntimeError, RuntimeError } from '../errors.js';
import { checkOptions, postgresEventStoreOptionsSchema } from '../options.js';
import { parseRecordKey, readRecordKeyFile } from '../record-key.js';
import { pgDriver } from './postgres-driver.js';
import { pgStoreError } from './postgres-errors.js';
import { LeaseHeartbeat, type LeaseLostListener } from './lease-heartbeat.js';
import { probeAndRenew } from './postgres-heartbeat.js';
import { leaseLost, Leases, type LeaseChange } from './postgres-lease.js';
import { AppendWatcher } from './postgres-listen.js';
import { PgCommandTable } from './postgres-commands.js';
import type { PostgresEventStoreOptions } from './postgres-options.js';
import { migratePg, PG_LATEST_SCHEMA_VERSION } from './postgres-schema.js';
import {
  bySession,
  EVENT_COLUMNS,
  lockedSummary,
  SESSION_COLUMNS,
  writeSession,
} from './postgres-append.js';
import { toEnvelope, toSummary, type EventRow, type SessionRow } from './sqlite-rows.js';
import { nextSummary, type EventStore, type ReadOptions, type StoredSession } from './types.js';
import { ReadCheck } from './verify.js';

function closedError(): RuntimeError {
  return new RuntimeError('store_unavailable', 'store_closed', 'the event store is closed');
}

/**
 * Opens a PostgreSQL event store; nothing connects until the first call. Many runtimes, on one
 * host or many, share the database: each session belongs to one runtime at a time through a
 * lease with a fencing token, taken at the session's first append (or by `takeOver`), and every
 * append checks it in its own transaction. Appends are durable on the server (its
 * `synchronous_commit`) before they resolve, and a NOTIFY sent at commit wakes subscribers in
 * every runtime. Throws synchronously only on invalid options.
 */
export function openPostgresEventStore(options: PostgresEventStoreOptions): EventStore {
  checkOptions(postgresEventStoreOptionsSchema, options, 'openPostgresEventStore options');
  return new PostgresEventStore(options);
}

class PostgresEventStore implements EventStore {
  readonly kind = 'postgres';
  readonly #pool: Pool;
  readonly #ownsPool: boolean;
  readonly #schema: string;
  readonly #leases: Leases;
  readonly #watcher: AppendWatcher;
  readonly #migrateTo: number;
  readonly commands: PgCommandTable;
  readonly followRetryMs: readonly number[];
  readonly #heartbeat: LeaseHeartbeat;
  #ready: Promise<void> | undefined;
  #claimed = false;
  #closed = false;
  readonly #key: Buffer | undefined;
  /** Summaries of the sessions this store holds, with the token they were written under. */
  readonly #summaries = new Map<string, { token: string; summary: StoredSession }>();

  constructor(options: PostgresEventStoreOptions) {
    const leaseMs = options.leaseMs ?? 30_000;
    this.#ownsPool = options.pool === undefined;
    this.#pool =
      // the host's own pg.Pool, seen through the part of its type the options declare
      (options.pool as Pool | undefined) ??
      new (pgDriver().Pool)({
        connectionString: options.connectionString,
        max: options.maxConnections ?? 10,
        connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
        // a paused owner must not hold its lease row locked past the lease: the server ends it
        options: `-c idle_in_transaction_session_timeout=${leaseMs}`,
      });
    // an idle client's failure (server restart) must not crash the host; the next query reports
    if (this.#ownsPool) this.#pool.on('error', () => undefined);
    this.#schema = options.schema ?? 'relvo';
    this.#leases = new Leases(this.#schema, randomUUID(), leaseMs);
    this.#watcher = new AppendWatcher(this.#pool, `${this.#schema}_appended`);
    this.commands = new PgCommandTable({
      schema: this.#schema,
      channel: `${this.#schema}_appended`,
      leases: this.#leases,
      watcher: this.#watcher,
      withClient: async (fn) => {
        await this.#open();
        return this.#withClient(fn);
      },
    });
    this.#heartbeat = new LeaseHeartbeat(
      this.#leases,
      () => this.#withClient((c) => probeAndRenew(c, this.#schema, this.#leases)),
      50,
    );
    this.#migrateTo = options.migrateTo ?? PG_LATEST_SCHEMA_VERSION;
    this.#key =
      options.recordKey !== undefined
        ? parseRecordKey(options.recordKey)
        : options.recordKeyFile !== undefined
          ? readRecordKeyFile(options.recordKeyFile)
          : undefined;
    const first = options.followRetryMs ?? 250;
    this.followRetryMs = Array.from({ length: options.followRetries ?? 8 }, (_, i) =>
      Math.min(Math.max(first, 5_000), first * 2 ** i),
    );
  }

  recordKey(): Buffer | undefined {
    return this.#key;
  }

  /** Connects, migrates and checks the schema once; a failure is retried on the next call. */
  async #open(): Promise<void> {
    if (this.#closed) throw closedError();
    this.#ready ??= this.#withClient((c) => migratePg(c, this.#schema, this.#migrateTo));
    this.#ready.catch(() => {
      this.#ready = undefined;
    });
    await this.#ready;
  }

  async #withClient<T>(fn: (client: PoolClient) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw pgStoreError(error);
    }
    // a checked-out client's error (the server ended the connection) would otherwise crash the
    // host; the query in flight rejects with it, and release discards the broken client
    let broken: Error | undefined;
    const onError = (error: Error): void => {
      broken = error;
    };
    client.on('error', onError);
    try {
      return await fn(client);
    } catch (error) {
      throw pgStoreError(error);
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }

  async #query<R extends object>(sql: string, params: unknown[]): Promise<R[]> {
    await this.#open();
    return this.#withClient(async (c) => (await c.query<R>(sql, params)).rows);
  }

  async claim(): Promise<void> {
    if (this.#claimed && !this.#closed) {
      throw new RuntimeError(
        'store_unavailable',
        'store_locked',
        'the event store is claimed by another runtime',
      );
    }
    await this.#open();
    this.#claimed = true;
    this.#heartbeat.start();
  }

  async relinquish(sessionId: string): Promise<void> {
    const given = this.#leases.giveUp([sessionId]);
    if (given.length === 0 || this.#closed) return;
    // best effort: a lease not ended here lapses unrenewed within one lease period
    await this.#withClient((c) => this.#leases.releaseGivenUp(c, given)).catch(() => undefined);
  }

  onLeaseLost(listener: LeaseLostListener): () => void {
    return this.#heartbeat.onLost(listener);
  }

  async append(batch: readonly EventEnvelope[]): Promise<void> {
    await this.#open();
    if (batch.length === 0) return;
    const groups = bySession(batch);
    let done: { lease: LeaseChange; summary: StoredSession }[];
    try {
      done = await this.#withClient(async (client) => {
        await client.query('BEGIN');
        try {
          const results = [];
          for (const [sessionId, envelopes] of groups) {
            results.push(await this.#appendSession(client, sessionId, envelopes));
          }
          await client.query('COMMIT');
          return results;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      });
    } catch (error) {
      // the outcome of a failed commit is unknown: read the summaries again next time
      for (const sessionId of groups.keys()) this.#summaries.delete(sessionId);
      throw await this.#leaseLostOr(error, [...groups.keys()]);
    }
    this.#leases.apply(done.map((d) => d.lease));
    for (const { lease, summary } of done) {
      if (lease.token === undefined) this.#summaries.delete(lease.sessionId);
      else this.#summaries.set(lease.sessionId, { token: lease.token, summary });
    }
  }

  /** A failure that hides a lost lease (a paused owner's connection ended) is `lease_lost`. */
  async #leaseLostOr(error: unknown, sessionIds: readonly string[]): Promise<unknown> {
    if (!isRuntimeError(error) || error.reason !== 'store_io') return error;
    try {
      return await this.#withClient(async (c) => {
        for (const id of sessionIds) if (!(await this.#leases.confirm(c, id))) return leaseLost();
        return error;
      });
    } catch {
      return error;
    }
  }

  async #appendSession(
    client: PoolClient,
    sessionId: string,
    envelopes: readonly EventEnvelope[],
  ): Promise<{ lease: LeaseChange; summary: StoredSession }> {
    const s = this.#schema;
    let lease = await this.#leases.fence(client, sessionId);
    const held = this.#summaries.get(sessionId);
    // while this store held the lease nobody else could write: its own summary is current
    let summary =
      held !== undefined && held.token === lease.token
        ? held.summary
        : await lockedSummary(client, s, sessionId);
    for (const e of envelopes) summary = nextSummary(summary, e);
    const last = summary as StoredSession;
    await writeSession(client, s, envelopes, last);
    if (envelopes.some((e) => e.payload.type === 'session.closed')) {
      lease = await this.#leases.release(client, lease);
    }
    return { lease, summary: last };
  }

  async read(sessionId: string, options: ReadOptions): Promise<readonly EventEnvelope[]> {
    // one statement, one snapshot: the page and the session's last sequence agree, so a short
    // page that stops before it is a hole, not a commit in between
    type PageRow = Omit<EventRow, 'sequence'> & { sequence: number | null; last: number | null };
    const rows = await this.#query<PageRow>(
      `SELECT s.last, e.* FROM (SELECT (SELECT last_sequence::float8 FROM ${this.#schema}.sessions
         WHERE session_id = $1) AS last) s
       LEFT JOIN LATERAL (SELECT ${EVENT_COLUMNS} FROM ${this.#schema}.events
         WHERE session_id = $1 AND sequence >= $2 ORDER BY sequence LIMIT $3) e ON true
       ORDER BY e.sequence`,
      [sessionId, options.fromSequence, options.limit],
    );
    const check = new ReadCheck(options.fromSequence);
    const out: EventEnvelope[] = [];
    // no event row: the one row the join returns carries the session's last sequence alone
    for (const row of rows) if (row.sequence !== null) out.push(toEnvelope(row as EventRow, check));
    check.end(out.length, options.limit, rows[0]?.last ?? 0);
    return out;
  }

  async getSession(sessionId: string): Promise<StoredSession | undefined> {
    const rows = await this.#query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM ${this.#schema}.sessions WHERE session_id = $1`,
      [sessionId],
    );
    return rows[0] === undefined ? undefined : toSummary(rows[0]);
  }

  async listSessions(): Promise<readonly StoredSession[]> {
    const rows = await this.#query<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM ${this.#schema}.sessions ORDER BY opened_at, session_id`,
      [],
    );
    return rows.map(toSummary);
  }

  async takeOver(sessionId: string): Promise<boolean> {
    await this.#open();
    return this.#withClient((c) => this.#leases.takeOver(c, sessionId));
  }

  async watch(sessionId: string, onAppend: () => void): Promise<() => void> {
    await this.#open();
    try {
      return await this.#watcher.watch(sessionId, onAppend);
    } catch (error) {
      throw pgStoreError(error);
    }
  }

  async watchLog(onChange: () => void): Promise<() => void> {
    await this.#open();
    try {
      return await this.#watcher.watchAll(onChange);
    } catch (error) {
      throw pgStoreError(error);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#claimed = false;
    this.#heartbeat.stop();
    await this.#watcher.close();
    // best effort: a lease not released lapses on its own
    await this.#withClient((c) => this.#leases.releaseAll(c)).catch(() => undefined);
    if (this.#ownsPool) await this.#pool.end().catch(() => undefined);
  }
}

export type { HostPgPool, PostgresEventStoreOptions } from './postgres-options.js';
