import Database from 'better-sqlite3';
import { checkOptions, sqliteEventStoreOptionsSchema } from '../options.js';
import {
  checkPages,
  checkSchema,
  checkStillThere,
  ensureFolder,
  fileIdentity,
  migrate,
  type FileIdentity,
} from './sqlite-open.js';
import type { EventEnvelope } from '../envelope.js';
import { isRuntimeError, RuntimeError, type RuntimeErrorReason } from '../errors.js';
import { recordKeyFile } from '../record-key.js';
import { LATEST_SCHEMA_VERSION } from './migrations.js';
import { summariesAfter } from './batch.js';
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
  /** How long to wait for another process's lock before refusing with `store_locked` (ms). */
  readonly busyTimeoutMs?: number;
  /** Only for tests of migrations: stop at this schema version. */
  readonly migrateTo?: number;
}

interface SqliteErrorLike {
  readonly code: string;
}

function sqliteCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as SqliteErrorLike).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/** Maps a better-sqlite3 failure to a typed store error; no SQLite prose is carried over. */
export function storeErrorOf(error: unknown): RuntimeError {
  if (isRuntimeError(error)) return error;
  const code = sqliteCode(error) ?? 'unknown';
  let reason: RuntimeErrorReason = 'store_io';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) reason = 'store_locked';
  else if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') reason = 'store_corrupt';
  const message =
    reason === 'store_locked'
      ? 'the event store database is locked by another process'
      : reason === 'store_corrupt'
        ? 'the event store database is corrupt or not a database'
        : 'the event store database could not be used';
  return new RuntimeError('store_unavailable', reason, message, {
    details: { sqliteCode: code.slice(0, 64) },
    cause: error,
  });
}

/**
 * Opens (or creates) a SQLite event store in WAL mode and takes an exclusive lock on it for
 * the life of the store: a second process (or a second store in this one) gets `store_locked`.
 * A locked, corrupt, foreign or newer-schema file is refused with a typed error and never
 * written to. Throws synchronously.
 */
export function openSqliteEventStore(options: SqliteEventStoreOptions): EventStore {
  checkOptions(sqliteEventStoreOptionsSchema, options, 'openSqliteEventStore options');
  ensureFolder(options.path);
  let db: Database.Database;
  let opened: FileIdentity | undefined;
  try {
    db = new Database(options.path, { timeout: options.busyTimeoutMs ?? 200 });
  } catch (error) {
    throw storeErrorOf(error);
  }
  try {
    // Exclusive before the first WAL access: the lock is held until close and no shared-memory
    // index is used, so nothing else can write (or mark our live sessions failed) meanwhile.
    db.pragma('locking_mode = EXCLUSIVE');
    const version = checkSchema(db);
    // before journal_mode, which rewrites the header: a corrupt file gets no write at all
    checkPages(db);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    // take the exclusive lock now rather than at the first append
    db.exec('BEGIN IMMEDIATE; COMMIT;');
    migrate(db, version, options.migrateTo ?? LATEST_SCHEMA_VERSION);
    opened = fileIdentity(options.path);
    // prepares its statements: refused (typed) on a schema stopped short of the latest
    return new SqliteEventStore(db, options.path, opened);
  } catch (error) {
    db.close();
    throw storeErrorOf(error);
  }
}

class SqliteEventStore implements EventStore {
  readonly kind = 'sqlite';
  private closed = false;
  private claimed = false;
  private readonly summaries = new Map<string, StoredSession>();
  private readonly insertRow: Database.Statement;
  private readonly upsertSession: Database.Statement;
  private readonly selectRows: Database.Statement;
  private readonly selectSession: Database.Statement;
  private readonly appendTx: Database.Transaction<
    (batch: readonly EventEnvelope[]) => Map<string, StoredSession>
  >;

  /** Set once the file was found removed or replaced: every later append is refused too. */
  private lost: RuntimeError | undefined;
  private key: Buffer | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly path: string,
    private readonly opened: FileIdentity | undefined,
  ) {
    this.insertRow = db.prepare(INSERT_ROW_SQL);
    this.upsertSession = db.prepare(
      `INSERT INTO sessions (session_id, state, default_profile, opened_at, updated_at, last_sequence)
       VALUES (@sessionId, @state, @defaultProfile, @openedAt, @updatedAt, @lastSequence)
       ON CONFLICT (session_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at,
         last_sequence = excluded.last_sequence`,
    );
    this.selectRows = db.prepare(SELECT_ROWS_SQL);
    this.selectSession = db.prepare('SELECT * FROM sessions WHERE session_id = ?');
    this.appendTx = db.transaction((batch: readonly EventEnvelope[]) => {
      const next = summariesAfter(batch, (id) => this.summary(id));
      forEachRow(batch, (sessionId, first, last, envelopes) => {
        this.insertRow.run(sessionId, first, last, envelopes);
      });
      for (const summary of next.values()) this.upsertSession.run(summary);
      return next;
    });
  }

  private summary(sessionId: string): StoredSession | undefined {
    const cached = this.summaries.get(sessionId);
    if (cached !== undefined) return cached;
    const row = this.selectSession.get(sessionId) as SessionRow | undefined;
    return row === undefined ? undefined : toSummary(row);
  }

  private guard(): void {
    if (this.closed)
      throw new RuntimeError('store_unavailable', 'store_closed', 'the event store is closed');
  }

  /** `<database>.key` beside the log, created 0600 on first use (ADR-0050). */
  recordKey(): Buffer {
    const key = this.key ?? recordKeyFile(`${this.path}.key`);
    this.key = key;
    return key;
  }

  claim(): Promise<void> {
    try {
      this.guard();
      if (this.claimed) {
        throw new RuntimeError(
          'store_unavailable',
          'store_locked',
          'the event store is claimed by another runtime',
        );
      }
      this.claimed = true;
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(storeErrorOf(error));
    }
  }

  append(batch: readonly EventEnvelope[]): Promise<void> {
    try {
      this.guard();
      if (this.lost !== undefined) throw this.lost;
      // the summaries cache is only updated after the transaction committed
      const next = this.appendTx.immediate(batch);
      try {
        checkStillThere(this.path, this.opened);
      } catch (error) {
        this.lost = storeErrorOf(error);
        throw this.lost;
      }
      for (const [id, summary] of next) this.summaries.set(id, summary);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(storeErrorOf(error));
    }
  }

  read(sessionId: string, options: ReadOptions): Promise<readonly EventEnvelope[]> {
    try {
      this.guard();
      const out: EventEnvelope[] = [];
      if (options.limit > 0) {
        const check = new ReadCheck(options.fromSequence);
        const rows = this.selectRows.iterate({ sessionId, fromSequence: options.fromSequence });
        for (const row of rows as IterableIterator<StoredRow>) {
          if (!takeEnvelopes(row, options.fromSequence, options.limit, out, check)) break;
        }
        // one connection, one writer (this process): the summary is of the same moment
        check.end(out.length, options.limit, this.summary(sessionId)?.lastSequence ?? 0);
      }
      return Promise.resolve(out);
    } catch (error) {
      return Promise.reject(storeErrorOf(error));
    }
  }

  getSession(sessionId: string): Promise<StoredSession | undefined> {
    try {
      this.guard();
      return Promise.resolve(this.summary(sessionId));
    } catch (error) {
      return Promise.reject(storeErrorOf(error));
    }
  }

  listSessions(): Promise<readonly StoredSession[]> {
    try {
      this.guard();
      const rows = this.db
        .prepare('SELECT * FROM sessions ORDER BY opened_at, session_id')
        .all() as SessionRow[];
      return Promise.resolve(rows.map(toSummary));
    } catch (error) {
      return Promise.reject(storeErrorOf(error));
    }
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.claimed = false;
      try {
        this.db.close();
      } catch {
        // closing twice or after a failed open: nothing left to release
      }
    }
    return Promise.resolve();
  }
}
