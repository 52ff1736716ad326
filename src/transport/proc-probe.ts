/**
 * The process-identity probe (docs/behaviour.md §3.6): the only place that reads /proc or sends signals.
 * Internal seam: tests substitute a scripted probe; it is not exported from the package entry.
 */
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs';

/** What is known about one PID. Unknown evidence never counts as absence. */
export type PidEvidence =
  | {
      readonly kind: 'stat';
      readonly pgid: number;
      readonly starttime: number;
      /** Parent PID (1 or a subreaper once the parent has died). */
      readonly ppid: number;
    }
  | {
      readonly kind: 'gone';
      /** A zombie's start time: it has exited, but when it started is still readable. */
      readonly starttime?: number;
    }
  | { readonly kind: 'foreign' }
  | { readonly kind: 'unknown'; readonly reason: string };

export type PidListing =
  | { readonly kind: 'list'; readonly pids: readonly number[] }
  | { readonly kind: 'unknown'; readonly reason: string };

/**
 * Whether a process's initial environment (`/proc/<pid>/environ`) carries the owner marker.
 * `unreadable`: the process exists but hides its environment (non-dumpable, another user
 * namespace); never treated as proof either way.
 */
export type MarkerEvidence = 'marked' | 'unmarked' | 'gone' | 'unreadable';

export interface ProcProbe {
  /** Whether PIDs can be attributed at all (Linux with a readable /proc). */
  canAttribute(): boolean;
  listPids(): PidListing;
  statOf(pid: number): PidEvidence;
  /** Whether `pid`'s environment holds exactly `entry` (`NAME=value`). */
  markerOf(pid: number, entry: string): MarkerEvidence;
  /** Same contract as `process.kill`: throws (ESRCH, EPERM, …) on failure. */
  kill(target: number, signal: NodeJS.Signals): void;
}

/**
 * One pass over /proc: each listed PID with the `stat` evidence read for it. A teardown takes one
 * and hands it to both the group sweep and the owner-marker sweep, so the machine's process
 * table is read once per pass instead of once per sweep.
 */
export type ProcSnapshot =
  | { readonly kind: 'list'; readonly entries: readonly ProcEntry[] }
  | { readonly kind: 'unknown'; readonly reason: string };

export interface ProcEntry {
  readonly pid: number;
  readonly ev: PidEvidence;
}

export function snapshotProcs(probe: ProcProbe): ProcSnapshot {
  const listing = probe.listPids();
  if (listing.kind === 'unknown') return listing;
  return { kind: 'list', entries: listing.pids.map((pid) => ({ pid, ev: probe.statOf(pid) })) };
}

/**
 * Parse /proc/<pid>/stat. The command name (field 2) may contain spaces and ')', so the fields
 * are read after the LAST ')': token 0 is the state, 2 the process group, 19 the start time.
 * A zombie or dead entry (state Z/X) has already exited and is reported as gone.
 */
export function parseProcStat(text: string): PidEvidence {
  const close = text.lastIndexOf(')');
  if (close < 0) return { kind: 'unknown', reason: 'unparsable' };
  const tokens = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const state = tokens[0];
  const ppid = Number(tokens[1]);
  const pgid = Number(tokens[2]);
  const starttime = Number(tokens[19]);
  if (
    state === undefined ||
    !Number.isSafeInteger(ppid) ||
    !Number.isSafeInteger(pgid) ||
    !Number.isSafeInteger(starttime)
  ) {
    return { kind: 'unknown', reason: 'unparsable' };
  }
  if (state === 'Z' || state === 'X') return { kind: 'gone', starttime };
  return { kind: 'stat', pgid, starttime, ppid };
}

/** Whether a NUL-separated environment block holds exactly `entry` as one of its strings. */
export function environHolds(environ: Buffer, entry: string): boolean {
  const needle = Buffer.from(`${entry}\0`, 'utf8');
  for (let at = environ.indexOf(needle); at >= 0; at = environ.indexOf(needle, at + 1)) {
    if (at === 0 || environ[at - 1] === 0) return true;
  }
  // the last string may lack its terminator when the block was cut short
  const bare = needle.subarray(0, needle.length - 1);
  const tail = environ.length - bare.length;
  return (
    tail >= 0 && (tail === 0 || environ[tail - 1] === 0) && environ.subarray(tail).equals(bare)
  );
}

/**
 * Read a whole /proc file with one open/read/close into a reused buffer. `readFileSync` costs
 * about ten times more per file here (it sizes, allocates and re-reads a zero-length procfs
 * file), and a teardown reads one `stat` per process on the machine. The returned view is
 * valid only until the next call.
 */
let scratch = Buffer.allocUnsafe(16 * 1024);
function readProcFile(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    let used = 0;
    for (;;) {
      if (used === scratch.length) {
        const bigger = Buffer.allocUnsafe(scratch.length * 2);
        scratch.copy(bigger, 0, 0, used);
        scratch = bigger;
      }
      const n = readSync(fd, scratch, used, scratch.length - used, null);
      if (n === 0) return scratch.subarray(0, used);
      used += n;
    }
  } finally {
    closeSync(fd);
  }
}

function errCode(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}

export function createLinuxProcProbe(): ProcProbe {
  const uid = typeof process.getuid === 'function' ? process.getuid() : -1;
  let available: boolean | undefined;
  return {
    canAttribute() {
      if (available === undefined) {
        try {
          available =
            process.platform === 'linux' &&
            parseProcStat(readFileSync('/proc/self/stat', 'latin1')).kind === 'stat';
        } catch {
          available = false;
        }
      }
      return available;
    },
    listPids() {
      try {
        const pids: number[] = [];
        for (const entry of readdirSync('/proc')) {
          const c = entry.charCodeAt(0);
          if (c >= 0x30 && c <= 0x39 && /^\d+$/.test(entry)) pids.push(Number(entry));
        }
        return { kind: 'list', pids };
      } catch {
        return { kind: 'unknown', reason: 'unreadable' };
      }
    },
    statOf(pid) {
      try {
        return parseProcStat(readProcFile(`/proc/${pid}/stat`).toString('latin1'));
      } catch (err) {
        const code = errCode(err);
        if (code === 'ENOENT' || code === 'ESRCH') return { kind: 'gone' };
        try {
          const owner = statSync(`/proc/${pid}`).uid;
          if (uid >= 0 && owner !== uid) return { kind: 'foreign' };
        } catch (inner) {
          const innerCode = errCode(inner);
          if (innerCode === 'ENOENT' || innerCode === 'ESRCH') return { kind: 'gone' };
        }
        return { kind: 'unknown', reason: 'unreadable' };
      }
    },
    markerOf(pid, entry) {
      try {
        return environHolds(readProcFile(`/proc/${pid}/environ`), entry) ? 'marked' : 'unmarked';
      } catch (err) {
        const code = errCode(err);
        if (code === 'ENOENT') return 'gone';
        // ESRCH on a live PID: a kernel thread (no address space, no environment)
        if (code === 'ESRCH') return existsSync(`/proc/${pid}`) ? 'unmarked' : 'gone';
        return 'unreadable';
      }
    },
    kill(target, signal) {
      process.kill(target, signal);
    },
  };
}
