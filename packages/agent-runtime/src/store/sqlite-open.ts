/**
 * What a SQLite event store checks beyond what SQLite reports itself: its folder before the
 * open, every page before anything is written, and that the file is still where it was opened
 * before an append is acknowledged.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { RuntimeError } from '../errors.js';
import { noLocks, storeErrorOf } from './sqlite-errors.js';
import {
  LATEST_SCHEMA_VERSION,
  MIGRATIONS,
  SQLITE_APPLICATION_ID,
  type Migration,
} from './migrations.js';

function errnoOf(error: unknown): string {
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return typeof code === 'string' ? code.slice(0, 32) : 'unknown';
}

/**
 * The database's folder is created when missing (as the file itself is); one that cannot be
 * created is refused as such, with what to do, instead of SQLite's generic open failure.
 */
export function ensureFolder(path: string): void {
  // ':memory:' and '' are SQLite's private in-memory and temporary databases
  if (path === '' || path === ':memory:') return;
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw new RuntimeError(
      'store_unavailable',
      'store_path_invalid',
      'the folder of the event store cannot be created; choose a path in a writable folder',
      { details: { errno: errnoOf(error) }, cause: error },
    );
  }
}

/**
 * SQLite's own page check (`quick_check`: every page, every record, not index contents), run
 * before the first write: a header can be intact over corrupt pages. Costs one read of the file.
 */
export function checkPages(db: Database.Database): void {
  const rows = db.pragma('quick_check(1)') as { quick_check?: unknown }[];
  if (rows.length === 1 && rows[0]?.quick_check === 'ok') return;
  throw new RuntimeError(
    'store_unavailable',
    'store_corrupt',
    'the event store database is corrupt (its integrity check failed); it is left untouched',
    { details: { check: 'quick_check' } },
  );
}

/** The file a store opened, by device and inode; undefined for SQLite's in-memory databases. */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

export function fileIdentity(path: string): FileIdentity | undefined {
  if (path === '' || path === ':memory:') return undefined;
  const info = statSync(path);
  return { dev: info.dev, ino: info.ino };
}

/**
 * SQLite keeps writing to a file that was unlinked or replaced (its folder removed, say) and
 * commits succeed, but nothing of them survives: such an append is refused, not acknowledged.
 */
export function checkStillThere(path: string, opened: FileIdentity | undefined): void {
  if (opened === undefined) return;
  let now: FileIdentity | undefined;
  try {
    now = fileIdentity(path);
  } catch {
    now = undefined;
  }
  if (now?.dev === opened.dev && now.ino === opened.ino) return;
  throw new RuntimeError(
    'store_unavailable',
    'store_moved',
    'the event store database was removed or replaced while open; appends are no longer durable',
  );
}

export function migrate(db: Database.Database, from: number, to: number): void {
  const pending: Migration[] = MIGRATIONS.filter((m) => m.version > from && m.version <= to);
  for (const migration of pending) {
    db.transaction(() => {
      // another process opening the file at the same moment may have migrated it meanwhile
      if ((db.pragma('user_version', { simple: true }) as number) >= migration.version) return;
      db.exec(migration.sql);
      if (migration.version === 1) db.pragma(`application_id = ${SQLITE_APPLICATION_ID}`);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}

/** Checks what the file holds before anything is written to it. */
export function checkSchema(db: Database.Database): number {
  const version = db.pragma('user_version', { simple: true }) as number;
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  if (version === 0) {
    const objects = db.prepare('SELECT count(*) AS n FROM sqlite_master').get() as { n: number };
    if (objects.n > 0 || applicationId !== 0) {
      throw new RuntimeError(
        'store_unavailable',
        'store_foreign',
        'the database is not a relvo event store',
        {
          details: { schemaVersion: version },
        },
      );
    }
    return 0;
  }
  if (applicationId !== SQLITE_APPLICATION_ID) {
    throw new RuntimeError(
      'store_unavailable',
      'store_foreign',
      'the database is not a relvo event store',
      {
        details: { schemaVersion: version },
      },
    );
  }
  if (version > LATEST_SCHEMA_VERSION) {
    throw new RuntimeError(
      'store_unavailable',
      'store_newer_schema',
      'the event store was written by a newer runtime; it is left untouched',
      { details: { schemaVersion: version, supportedVersion: LATEST_SCHEMA_VERSION } },
    );
  }
  return version;
}

export interface OpenOptions {
  readonly path: string;
  readonly synchronous?: 'full' | 'normal';
  readonly busyTimeoutMs?: number;
  readonly migrateTo?: number;
}

/** `PRAGMA journal_mode = WAL` as SQLite answers it: the mode in force afterwards. */
export type WalSwitch = (db: Database.Database) => unknown;

const switchToWal: WalSwitch = (db) => db.pragma('journal_mode = WAL', { simple: true });

/**
 * Opens the file, checks what it holds before anything is written, puts it in WAL mode and
 * migrates it. A file whose filesystem refuses WAL's shared-memory index or its locks is
 * refused (`store_no_locks`): several processes could not share it safely. `wal` is a seam
 * for tests only. Throws typed errors synchronously.
 */
export function openDatabase(
  options: OpenOptions,
  wal: WalSwitch = switchToWal,
): Database.Database {
  ensureFolder(options.path);
  let db: Database.Database;
  try {
    db = new Database(options.path, { timeout: options.busyTimeoutMs ?? 2_000 });
  } catch (error) {
    throw storeErrorOf(error);
  }
  try {
    const version = checkSchema(db);
    // before journal_mode, which rewrites the header: a corrupt file gets no write at all
    checkPages(db);
    const mode = wal(db);
    if (mode !== 'wal') throw noLocks({ sqliteCode: `journal_mode_${String(mode).slice(0, 16)}` });
    db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    migrate(db, version, options.migrateTo ?? LATEST_SCHEMA_VERSION);
    return db;
  } catch (error) {
    db.close();
    throw storeErrorOf(error);
  }
}
