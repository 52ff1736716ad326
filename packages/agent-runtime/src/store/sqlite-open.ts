/** What opening a SQLite event store checks and prepares before the database is touched. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { RuntimeError } from '../errors.js';

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
