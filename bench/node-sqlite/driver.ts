/**
 * A measurement aid, not a store: the part of better-sqlite3's API the SQLite store uses, on
 * Node's built-in `node:sqlite` (Node 22.13+), so the unchanged store, its tests and its bench run
 * on either driver (register.ts swaps it in). Errors carry better-sqlite3's string codes.
 * Type annotations only (no enums, no parameter properties): Node strips them itself.
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';

/** SQLite's result codes by number (primary, and the extended ones the store tells apart). */
const CODES: Record<number, string> = {
  1: 'SQLITE_ERROR',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  8: 'SQLITE_READONLY',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  19: 'SQLITE_CONSTRAINT',
  26: 'SQLITE_NOTADB',
  2067: 'SQLITE_CONSTRAINT_UNIQUE',
  1555: 'SQLITE_CONSTRAINT_PRIMARYKEY',
  3850: 'SQLITE_IOERR_LOCK',
  4874: 'SQLITE_IOERR_SHMOPEN',
  5130: 'SQLITE_IOERR_SHMSIZE',
  5386: 'SQLITE_IOERR_SHMLOCK',
  5642: 'SQLITE_IOERR_SHMMAP',
  517: 'SQLITE_BUSY_SNAPSHOT',
  261: 'SQLITE_BUSY_RECOVERY',
};

class SqliteError extends Error {
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.code = code;
  }
}

function translated(error: unknown): unknown {
  if (!(error instanceof Error) || !('errcode' in error)) return error;
  const errcode = Number(error.errcode);
  const code = CODES[errcode] ?? CODES[errcode & 0xff] ?? `SQLITE_${String(errcode)}`;
  return new SqliteError(error.message, code);
}

function guarded<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw translated(error);
  }
}

/** Blobs come back as Uint8Array; the store, written for better-sqlite3, expects Buffers. */
function row(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    out[k] = v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v) : v;
  return out;
}

type Params = readonly unknown[];

class Statement {
  readonly #stmt: StatementSync;
  #pluck = false;
  constructor(stmt: StatementSync) {
    this.#stmt = stmt;
  }
  pluck(on = true): this {
    this.#pluck = on;
    return this;
  }
  #shape(value: unknown): unknown {
    const r = row(value);
    return this.#pluck && r !== undefined && r !== null ? Object.values(r)[0] : r;
  }
  #args(params: Params): SQLInputValue[] {
    return params as SQLInputValue[];
  }
  run(...params: Params): { changes: number; lastInsertRowid: number } {
    const r = guarded(() => this.#stmt.run(...this.#args(params)));
    return { changes: Number(r.changes), lastInsertRowid: Number(r.lastInsertRowid) };
  }
  get(...params: Params): unknown {
    return this.#shape(guarded(() => this.#stmt.get(...this.#args(params))));
  }
  all(...params: Params): unknown[] {
    return guarded(() => this.#stmt.all(...this.#args(params))).map((r) => this.#shape(r));
  }
  *iterate(...params: Params): IterableIterator<unknown> {
    // all() then yield: node:sqlite's iterate() is not on every version this runs on
    yield* this.all(...params);
  }
}

type Tx<A extends unknown[], R> = ((...args: A) => R) & {
  deferred: (...args: A) => R;
  immediate: (...args: A) => R;
  exclusive: (...args: A) => R;
};

class Database {
  readonly #db: DatabaseSync;
  #depth = 0;
  constructor(path: string, options: { timeout?: number } = {}) {
    this.#db = guarded(() => new DatabaseSync(path));
    this.#db.exec(`PRAGMA busy_timeout = ${String(options.timeout ?? 5_000)}`);
  }
  prepare(sql: string): Statement {
    return new Statement(guarded(() => this.#db.prepare(sql)));
  }
  exec(sql: string): this {
    guarded(() => {
      this.#db.exec(sql);
    });
    return this;
  }
  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const rows = this.prepare(`PRAGMA ${source}`).all();
    if (options.simple !== true) return rows;
    const first = rows[0];
    return first === undefined ? undefined : Object.values(first as object)[0];
  }
  close(): this {
    // better-sqlite3 closes a closed database quietly
    if (this.#db.isOpen) this.#db.close();
    return this;
  }
  transaction<A extends unknown[], R>(fn: (...args: A) => R): Tx<A, R> {
    const run =
      (begin: string) =>
      (...args: A): R => {
        // nested calls become savepoints, as in better-sqlite3
        const nested = this.#depth > 0;
        this.exec(nested ? 'SAVEPOINT tx' : begin);
        this.#depth += 1;
        try {
          const result = fn(...args);
          this.#depth -= 1;
          this.exec(nested ? 'RELEASE tx' : 'COMMIT');
          return result;
        } catch (error) {
          this.#depth -= 1;
          try {
            this.exec(nested ? 'ROLLBACK TO tx; RELEASE tx' : 'ROLLBACK');
          } catch {
            // SQLite may have rolled back already (SQLITE_FULL, IOERR)
          }
          throw error;
        }
      };
    return Object.assign(run('BEGIN'), {
      deferred: run('BEGIN DEFERRED'),
      immediate: run('BEGIN IMMEDIATE'),
      exclusive: run('BEGIN EXCLUSIVE'),
    });
  }
}

export default Database;
// require(esm) of this module (a CommonJS caller, as tsx makes of a child's imports) gets the class
export { Database as 'module.exports' };
