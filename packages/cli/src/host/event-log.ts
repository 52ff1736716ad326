/**
 * The CLI's event log is private: it holds prompts, replies and workspace paths. Folders the
 * CLI creates for it are 0700, the database file is 0600 before SQLite first opens it, and
 * SQLite gives its WAL (and a journal or SHM) the database file's mode — so the umask never
 * decides who may read it.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { openSqliteEventStore, type EventStore } from '@relvo-labs/agent-runtime';

export const LOG_DIR_MODE = 0o700;
export const LOG_FILE_MODE = 0o600;
/** The files SQLite keeps next to a database. */
export const SQLITE_SIDE_FILES = ['-wal', '-shm', '-journal'] as const;

/** Creates each missing folder of `dir` with mode 0700 (explicitly: mkdir's mode is masked). */
function makePrivateDirs(dir: string): void {
  if (existsSync(dir)) return;
  makePrivateDirs(dirname(dir));
  mkdirSync(dir, { mode: LOG_DIR_MODE });
  chmodSync(dir, LOG_DIR_MODE);
}

/** Makes `path` a 0600 file we own, creating it empty when absent (SQLite accepts an empty file). */
function makePrivateFile(path: string): void {
  closeSync(openSync(path, 'a', LOG_FILE_MODE));
  if ((statSync(path).mode & 0o777) !== LOG_FILE_MODE) chmodSync(path, LOG_FILE_MODE);
}

export interface PrivateLogOptions {
  /**
   * The folder is relvo-codex's own (the default location): tighten it to 0700 even when it
   * exists. A folder the person named (say /tmp) is never changed.
   */
  readonly ownsFolder?: boolean;
}

/** Prepares the log's folder and files so that only this user can read them. */
export function preparePrivateLog(path: string, options: PrivateLogOptions = {}): void {
  makePrivateDirs(dirname(path));
  if (options.ownsFolder === true) chmodSync(dirname(path), LOG_DIR_MODE);
  makePrivateFile(path);
  // a WAL left by a crash (or by an older relvo-codex) keeps whatever mode it was created with
  for (const suffix of SQLITE_SIDE_FILES) {
    if (existsSync(path + suffix)) chmodSync(path + suffix, LOG_FILE_MODE);
  }
}

/** Opens the SQLite event log of `run`, private whatever the umask. */
export function openPrivateEventLog(path: string, options: PrivateLogOptions = {}): EventStore {
  preparePrivateLog(path, options);
  return openSqliteEventStore({ path });
}
