/**
 * What the SQLite event store refuses to open, always typed and never writing to what it
 * refuses: a file another program locks exclusively, a filesystem without working locks or
 * shared memory, a corrupt file, a newer schema, another application's database.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteEventStore, type RuntimeError } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, SQLITE_APPLICATION_ID } from '../src/store/migrations.js';
import { openDatabase } from '../src/store/sqlite-open.js';
import { storeErrorOf } from '../src/store/sqlite-errors.js';
import { onCleanup, tempDir, thrownRuntimeError } from './support.js';

/** The typed error opening the store at `path` fails with. */
const refusedOpen = (path: string): RuntimeError =>
  thrownRuntimeError(() => {
    const store = openSqliteEventStore({ path, busyTimeoutMs: 50 });
    void store.close();
  });

describe('SQLite event store refusals', () => {
  it('refuses a database another program holds exclusively (an older runtime) with a typed error', async () => {
    const path = join(tempDir(), 'events.db');
    await openSqliteEventStore({ path }).close();
    // what a runtime from before shared files did: an exclusive lock for its whole life
    const legacy = new Database(path);
    legacy.pragma('locking_mode = EXCLUSIVE');
    legacy.exec('BEGIN IMMEDIATE; COMMIT;');
    onCleanup(() => {
      legacy.close();
    });
    const error = refusedOpen(path);
    expect([error.code, error.reason]).toEqual(['store_unavailable', 'store_locked']);
    legacy.close();
    const again = openSqliteEventStore({ path });
    await again.close();
  });

  it('refuses a file whose filesystem has no working locks or shared memory (store_no_locks)', () => {
    // SQLite itself refuses WAL for a database with no file to lock or map (in memory)
    expect(refusedOpen(':memory:').reason).toBe('store_no_locks');
    // a filesystem that refuses the shared-memory index leaves the journal as it was (the seam
    // stands in for such a filesystem), or fails its lock calls with these codes
    const path = join(tempDir(), 'events.db');
    const refused = thrownRuntimeError(() => {
      openDatabase({ path }, () => 'delete').close();
    });
    expect(refused.reason).toBe('store_no_locks');
    for (const code of ['SQLITE_IOERR_SHMMAP', 'SQLITE_IOERR_LOCK', 'SQLITE_IOERR_SHMOPEN']) {
      expect(storeErrorOf(Object.assign(new Error('x'), { code })).reason).toBe('store_no_locks');
    }
    // refused before anything was written: the file opens normally on a working filesystem
    const store = openSqliteEventStore({ path });
    void store.close();
  });

  it('refuses a corrupt file and never overwrites it', () => {
    const path = join(tempDir(), 'events.db');
    const garbage = Buffer.alloc(8192, 0x5a);
    writeFileSync(path, garbage);
    const error = refusedOpen(path);
    expect(error.reason).toBe('store_corrupt');
    expect(readFileSync(path).equals(garbage)).toBe(true);
  });

  it('refuses a database from a newer schema version and leaves it untouched', () => {
    const path = join(tempDir(), 'events.db');
    const db = new Database(path);
    db.pragma(`application_id = ${SQLITE_APPLICATION_ID}`);
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    db.exec('CREATE TABLE future (x)');
    db.close();
    const bytes = readFileSync(path);
    const error = refusedOpen(path);
    expect(error.reason).toBe('store_newer_schema');
    expect(error.error.details).toMatchObject({
      schemaVersion: LATEST_SCHEMA_VERSION + 1,
      supportedVersion: LATEST_SCHEMA_VERSION,
    });
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it("refuses another application's SQLite database", () => {
    const path = join(tempDir(), 'other.db');
    const db = new Database(path);
    db.exec('CREATE TABLE customers (id INTEGER)');
    db.close();
    const bytes = readFileSync(path);
    expect(refusedOpen(path).reason).toBe('store_foreign');
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });
});
