/**
 * The PostgreSQL driver. `pg` is an optional peer of the runtime: loaded with the first
 * PostgreSQL store, so an embedded host neither installs it nor pays its start-up.
 */
import { createRequire } from 'node:module';
import { RuntimeError } from '../errors.js';
import { loadOptional } from '../optional-module.js';

type PgDriver = typeof import('pg');
let driver: PgDriver | undefined;

/** Loads `pg` through `load` (a seam for tests of a host without it); typed when absent. */
export function loadPgDriver(load: (id: string) => unknown): PgDriver {
  return loadOptional(
    load,
    'pg',
    (cause) =>
      new RuntimeError(
        'store_unavailable',
        'store_driver_missing',
        "a PostgreSQL event store needs the 'pg' driver, which is not installed; run: npm install pg@^8",
        { details: { driver: 'pg' }, cause },
      ),
  ) as PgDriver;
}

export function pgDriver(): PgDriver {
  driver ??= loadPgDriver(createRequire(import.meta.url));
  return driver;
}
