/**
 * What `run` checks before it starts anything, and how a refusal while opening the runtime
 * reads: each is exit 2 with the path, the reason and what to do, never "unexpected error".
 */
import { readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { isRuntimeError } from '@relvo-labs/agent-runtime';
import { CliExit, EXIT } from '../exit-codes.js';
import { submitErrorToExit } from '../turn/submit-errors.js';

function errnoOf(error: unknown): string {
  const code: unknown =
    typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return typeof code === 'string' ? code.slice(0, 32) : 'unknown';
}

/** The workspace must be an existing folder. */
export function checkWorkspace(path: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (error) {
    const why =
      errnoOf(error) === 'ENOENT' ? 'no such folder' : `cannot be read (${errnoOf(error)})`;
    throw new CliExit(EXIT.usage, `--cwd ${path}: ${why}; name an existing folder`);
  }
  if (!isDirectory) {
    throw new CliExit(EXIT.usage, `--cwd ${path}: not a folder; name the folder to work in`);
  }
}

/** The event log must be a file (or not exist yet), never a folder. */
export function checkEventLogPath(path: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    // absent is fine (it is created); anything else is reported when it is opened
  }
  if (isDirectory) {
    throw new CliExit(
      EXIT.usage,
      `event log ${path} is a folder; name a file, e.g. --event-log ${path}/events.sqlite`,
    );
  }
}

/**
 * Best effort, Linux only: the process that has `path` open, by its open descriptors. Only the
 * pid and the process name are shown — a command line could hold another run's prompt.
 */
export function holderOf(path: string): string | undefined {
  let target: string;
  let pids: string[];
  try {
    target = realpathSync(path);
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    try {
      const fds = readdirSync(`/proc/${pid}/fd`);
      if (!fds.some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`) === target)) continue;
      return `process ${pid} (${readFileSync(`/proc/${pid}/comm`, 'utf8').trim()})`;
    } catch {
      // gone, or not ours to look at
    }
  }
  return undefined;
}

const PICK_ANOTHER = 'pick another with --event-log FILE (or $RELVO_CODEX_EVENT_LOG)';

/** A failure while opening the runtime or its session, as the person can act on it. */
export function startupErrorToExit(error: unknown, eventLog: string): CliExit {
  if (error instanceof CliExit) return error;
  if (isRuntimeError(error) && error.error.code === 'store_unavailable') {
    const holder = error.reason === 'store_locked' ? holderOf(eventLog) : undefined;
    // several relvo-codex share a log; only a program holding the whole file locks it
    const why =
      error.reason === 'store_locked'
        ? `is held exclusively by ${holder ?? 'another program'}; wait for it to end, or ${PICK_ANOTHER}`
        : error.reason === 'store_no_locks'
          ? `is on a filesystem without working file locks, where runs could not share it; ${PICK_ANOTHER} on a local disk`
          : `cannot be used (${error.reason}); ${PICK_ANOTHER}`;
    return new CliExit(EXIT.usage, `event log ${eventLog} ${why}`);
  }
  if (!isRuntimeError(error) && errnoOf(error) !== 'unknown') {
    // creating the event log's folder failed (mkdir): a path through a file, no permission
    return new CliExit(
      EXIT.usage,
      `event log ${eventLog}: its folder cannot be created (${errnoOf(error)}); ${PICK_ANOTHER}`,
    );
  }
  // config refusals (an unregistered provider, refused options) are usage errors there too
  return submitErrorToExit(error);
}
