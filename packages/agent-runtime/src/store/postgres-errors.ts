import { RuntimeError, type RuntimeErrorReason } from '../errors.js';

function field(error: unknown, key: string): string | undefined {
  if (typeof error !== 'object' || error === null || !(key in error)) return undefined;
  const value = (error as Record<string, unknown>)[key];
  return typeof value === 'string' ? value.slice(0, 32) : undefined;
}

/**
 * Maps a `pg` failure to a typed store error. Only the SQLSTATE or errno is carried: a driver's
 * message can name the user, host or database, and the connection string is never repeated.
 * No `cause` for the same reason.
 */
export function pgStoreError(error: unknown): RuntimeError {
  if (error instanceof RuntimeError) return error;
  const sqlState = field(error, 'code');
  let reason: RuntimeErrorReason = 'store_io';
  let message = 'the PostgreSQL event store could not be used';
  if (sqlState === '23505' || sqlState === '40001' || sqlState === '40P01') {
    reason = 'store_conflict';
    message = 'a concurrent write to the session was refused';
  } else if (sqlState === '28P01' || sqlState === '28000') {
    message = 'the PostgreSQL server refused the credentials';
  } else if (sqlState === '3D000') {
    message = 'the PostgreSQL database does not exist';
  } else if (sqlState?.startsWith('08') === true || sqlState?.startsWith('E') === true) {
    message = 'the PostgreSQL server could not be reached';
  }
  const details = sqlState === undefined ? { sqlState: 'unknown' } : { sqlState };
  return new RuntimeError('store_unavailable', reason, message, { details });
}
