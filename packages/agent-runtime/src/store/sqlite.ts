import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { checkOptions, sqliteEventStoreOptionsSchema } from '../options.js';
import { checkStillThere, fileIdentity, type FileIdentity } from './sqlite-open.js';
import type { EventEnvelope } from '../envelope.js';
import { RuntimeError } from '../errors.js';
import { recordKeyFile } from '../record-key.js';
import { summariesAfter } from './batch.js';
import { bySession } from './postgres-append.js';
import { machineClock } from './sqlite-clock.js';
import { SqliteCommands } from './sqlite-commands.js';
import { storeErrorOf } from './sqlite-errors.js';
import { LeaseHeartbeat, type LeaseLostListener } from './lease-heartbeat.js';
import { renewal } from './sqlite-heartbeat.js';
import { SqliteLeases, type LeaseChange } from './sqlite-lease.js';
import { openDatabase } from './sqlite-open.js';
import { SqlitePoller } from './sqlite-watch.js';
import {
  forEachRow,
  INSERT_ROW_SQL,
  SELECT_ROWS_SQL,
  takeEnvelopes,
  type StoredRow,
  toSummary,
  type SessionRow,
} from './sqlite-rows.js';
import type { EventStore, ReadOptions, StoredSession } from './types.js';
import { ReadCheck } from './verify.js';

export interface SqliteEventStoreOptions {
  /** The database file; created when absent, and its folder too. */
  readonly path: string;
  /**
   * `full` (default): each commit is fsynced before `append` resolves, so an acknowledged
   * event survives power loss. `normal`: WAL without a sync per commit; survives a crash of
   * this process (SIGKILL) but not of the machine.
   */
  readonly synchronous?: 'full' | 'normal';
  /**
   * How long a write waits for another process's write to finish before refusing with
   * `store_locked` (ms; default 2000). Writes are short; the wait blocks this process's event loop.
   */
  readonly busyTimeoutMs?: number;
  /**
   * A session's lease period (ms; default 10000): how long a session whose owner stopped
   * renewing stays unavailable to other processes. An owner whose process is gone (on this
   * machine) is known at once and its leases lapse without the wait.
   */
  readonly leaseMs?: number;
  /**
   * How often a follower of another process's session, or of the command table, looks for new
   * commits (ms; default 20: each look is one `PRAGMA data_version`).
   */
  readonly pollMs?: number;
  /** Only for tests of migrations: stop at this schema version. */
  readonly migrateTo?: number;
}

export { storeErrorOf };

/** A follower's transient failures are local (a busy file): short waits before giving up. */
const FOLLOW_RETRY_MS = [50, 100, 200, 400, 800] as const;

/**
 * Opens (or creates) a SQLite event store in WAL mode. Any number of processes on this machine
 * may open one file (ADR-0053): readers are never blocked, and each session is written by one
 * store at a time through a lease with a fencing token. A corrupt, foreign or newer-schema
 * file, or one on a filesystem without working locks, is refused with a typed error and never
 * written to. Throws synchronously.
 */
export function openSqliteEventStore(options: SqliteEventStoreOptions): EventStore {
  checkOptions(sqliteEventStoreOptionsSchema, options, 'openSqliteEventStore options');
  const db = openDatabase(options);
  try {
    const opened = fileIdentity(options.path);
    // prepares its statements: refused (typed) on a schema stopped short of the latest
    return new SqliteEventStore(db, options, opened);
  } catch (error) {
    db.close();
    throw storeErrorOf(error);
  }
}

interface Appended {
  readonly next: Map<string, StoredSession>;
  readonly leases: LeaseChange[];
}

class SqliteEventStore implements EventStore {
  readonly kind = 'sqlite';
  readonly followRetryMs = FOLLOW_RETRY_MS;
  readonly commands: SqliteCommands;
  private closed = false;
  private claimed = false;
  /** Summaries of the sessions this store holds, with the token they were written under. */
  private readonly summaries = new Map<string, { token: number; summary: StoredSession }>();
  private readonly selectRows: Database.Statement;
  private readonly selectSession: Database.Statement;
  private readonly appendTx: Database.Transaction<(batch: readonly EventEnvelope[]) => Appended>;
  private readonly readTx: Database.Transaction<
    (sessionId: string, options: ReadOptions) => EventEnvelope[]
  >;
  private readonly leases: SqliteLeases;
  private readonly heartbeat: LeaseHeartbeat;
  private readonly poller: SqlitePoller;
  private readonly path: string;

  /** Set once the file was found removed or replaced: every later append is refused too. */
  private lost: RuntimeError | undefined;
  private key: Buffer | undefined;

  constructor(
    private readonly db: Database.Database,
    options: SqliteEventStoreOptions,
    private readonly opened: FileIdentity | undefined,
  ) {
    this.path = options.path;
    this.leases = new SqliteLeases(db, randomUUID(), options.leaseMs ?? 10_000, machineClock());
    const renew = renewal(db, this.leases);
    this.heartbeat = new LeaseHeartbeat(
      this.leases,
      () =>
        new Promise((resolve) => {
          checkStillThere(this.path, this.opened);
          resolve(renew.immediate(performance.now()));
        }),
      20,
    );
    this.poller = new SqlitePoller(db, options.pollMs ?? 20);
    this.commands = new SqliteCommands(db, this.leases, this.poller, () => {
      this.guard();
    });
    const insertRow = db.prepare(INSERT_ROW_SQL);
    const upsertSession = db.prepare(
      `INSERT INTO sessions (session_id, state, default_profile, opened_at, updated_at, last_sequence)
       VALUES (@sessionId, @state, @defaultProfile, @openedAt, @updatedAt, @lastSequence)
       ON CONFLICT (session_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at,
         last_sequence = excluded.last_sequence`,
    );
    this.selectRows = db.prepare(SELECT_ROWS_SQL);
    this.selectSession = db.prepare('SELECT * FROM sessions WHERE session_id = ?');
    this.appendTx = db.transaction((batch: readonly EventEnvelope[]) => {
      const leases = [...bySession(batch).keys()].map((id) => this.leases.fence(id));
      const tokens = new Map(leases.map((l) => [l.sessionId, l.token]));
      const next = summariesAfter(batch, (id) => this.summary(id, tokens.get(id)));
      forEachRow(batch, (sessionId, first, last, envelopes) => {
        insertRow.run(sessionId, first, last, envelopes);
      });
      for (const summary of next.values()) upsertSession.run(summary);
      const closing = new Set(
        batch.filter((e) => e.payload.type === 'session.closed').map((e) => e.sessionId),
      );
      return {
        next,
        leases: leases.map((l) => (closing.has(l.sessionId) ? this.leases.release(l) : l)),
      };
    });
    // one read transaction: the rows and the session's last sequence are of the same moment
    this.readTx = db.transaction((sessionId: string, options: ReadOptions) => {
      const out: EventEnvelope[] = [];
      const check = new ReadCheck(options.fromSequence);
      const rows = this.selectRows.iterate({ sessionId, fromSequence: options.fromSequence });
      for (const row of rows as IterableIterator<StoredRow>) {
        if (!takeEnvelopes(row, options.fromSequence, options.limit, out, check)) break;
      }
      check.end(out.length, options.limit, this.stored(sessionId)?.lastSequence ?? 0);
      return out;
    });
  }

  private stored(sessionId: string): StoredSession | undefined {
    const row = this.selectSession.get(sessionId) as SessionRow | undefined;
    return row === undefined ? undefined : toSummary(row);
  }

  /** While this store held the lease under `token` nobody else wrote: its own summary is current. */
  private summary(sessionId: string, token: number | undefined): StoredSession | undefined {
    const held = this.summaries.get(sessionId);
    if (held !== undefined && held.token === token) return held.summary;
    return this.stored(sessionId);
  }

  private guard(): void {
    if (this.closed)
      throw new RuntimeError('store_unavailable', 'store_closed', 'the event store is closed');
  }

  private run<T>(fn: () => T): Promise<T> {
    try {
      this.guard();
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(storeErrorOf(error));
    }
  }

  /** `<database>.key` beside the log, created 0600 on first use (ADR-0050). */
  recordKey(): Buffer {
    const key = this.key ?? recordKeyFile(`${this.path}.key`);
    this.key = key;
    return key;
  }

  claim(): Promise<void> {
    return this.run(() => {
      if (this.claimed) {
        throw new RuntimeError(
          'store_unavailable',
          'store_locked',
          'the event store is claimed by another runtime',
        );
      }
      this.claimed = true;
      this.heartbeat.start();
    });
  }

  append(batch: readonly EventEnvelope[]): Promise<void> {
    return this.run(() => {
      if (this.lost !== undefined) throw this.lost;
      if (batch.length === 0) return;
      let done: Appended;
      try {
        done = this.appendTx.immediate(batch);
      } catch (error) {
        // the outcome of a failed commit is unknown: read the summaries again next time
        for (const e of batch) this.summaries.delete(e.sessionId);
        throw error;
      }
      try {
        checkStillThere(this.path, this.opened);
      } catch (error) {
        this.lost = storeErrorOf(error);
        throw this.lost;
      }
      // the caches and leases are only updated after the transaction committed
      this.leases.apply(done.leases);
      for (const lease of done.leases) {
        const summary = done.next.get(lease.sessionId);
        if (lease.token === undefined || summary === undefined)
          this.summaries.delete(lease.sessionId);
        else this.summaries.set(lease.sessionId, { token: lease.token, summary });
      }
      this.poller.appended(done.next);
    });
  }

  read(sessionId: string, options: ReadOptions): Promise<readonly EventEnvelope[]> {
    return this.run(() => (options.limit > 0 ? this.readTx.deferred(sessionId, options) : []));
  }

  getSession(sessionId: string): Promise<StoredSession | undefined> {
    return this.run(() => this.stored(sessionId));
  }

  listSessions(): Promise<readonly StoredSession[]> {
    return this.run(() => {
      const rows = this.db
        .prepare('SELECT * FROM sessions ORDER BY opened_at, session_id')
        .all() as SessionRow[];
      return rows.map(toSummary);
    });
  }

  takeOver(sessionId: string): Promise<boolean> {
    return this.run(() => this.leases.takeOver(sessionId));
  }

  relinquish(sessionId: string): Promise<void> {
    if (!this.closed) this.leases.giveUp([sessionId]);
    return Promise.resolve();
  }

  onLeaseLost(listener: LeaseLostListener): () => void {
    return this.heartbeat.onLost(listener);
  }

  watch(sessionId: string, onAppend: () => void): Promise<() => void> {
    return this.run(() => this.poller.watchSession(sessionId, onAppend));
  }

  watchLog(onChange: () => void): Promise<() => void> {
    return this.run(() => this.poller.watchLog(onChange));
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.claimed = false;
      this.heartbeat.stop();
      this.poller.stop();
      // best effort: a lease not released lapses on its own
      this.leases.releaseAll();
      try {
        this.db.close();
      } catch {
        // closing twice or after a failed open: nothing left to release
      }
    }
    return Promise.resolve();
  }
}
