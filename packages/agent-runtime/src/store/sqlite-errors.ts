/** How a better-sqlite3 failure reads as a typed store error; no SQLite prose is carried over. */
import { isRuntimeError, RuntimeError, type RuntimeErrorReason } from '../errors.js';

interface SqliteErrorLike {
  readonly code: string;
}

export function sqliteCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as SqliteErrorLike).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/**
 * The codes SQLite gives when the file's locks or its shared-memory index do not work (the
 * filesystem refuses `fcntl` locks or a shared mapping): the file cannot be shared safely.
 */
const NO_LOCKS = new Set([
  'SQLITE_IOERR_LOCK',
  'SQLITE_IOERR_RDLOCK',
  'SQLITE_IOERR_UNLOCK',
  'SQLITE_IOERR_CHECKRESERVEDLOCK',
  'SQLITE_IOERR_SHMOPEN',
  'SQLITE_IOERR_SHMSIZE',
  'SQLITE_IOERR_SHMLOCK',
  'SQLITE_IOERR_SHMMAP',
]);

export function noLocks(details: { sqliteCode: string }, cause?: unknown): RuntimeError {
  return new RuntimeError(
    'store_unavailable',
    'store_no_locks',
    "the event store's filesystem has no working file locks or shared memory; it cannot be shared safely, so it is not opened: put it on a local filesystem",
    { details, ...(cause === undefined ? {} : { cause }) },
  );
}

const MESSAGES: Partial<Record<RuntimeErrorReason, string>> = {
  store_locked: 'the event store database is locked by another process',
  store_corrupt: 'the event store database is corrupt or not a database',
};

/** Maps a better-sqlite3 failure to a typed store error. */
export function storeErrorOf(error: unknown): RuntimeError {
  if (isRuntimeError(error)) return error;
  const code = (sqliteCode(error) ?? 'unknown').slice(0, 64);
  if (NO_LOCKS.has(code)) return noLocks({ sqliteCode: code }, error);
  let reason: RuntimeErrorReason = 'store_io';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) reason = 'store_locked';
  else if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') reason = 'store_corrupt';
  const message = MESSAGES[reason] ?? 'the event store database could not be used';
  return new RuntimeError('store_unavailable', reason, message, {
    details: { sqliteCode: code },
    cause: error,
  });
}
