import type {
  MarkerEvidence,
  PidEvidence,
  PidListing,
  ProcProbe,
} from '../../src/transport/proc-probe.js';
import type { LeaderHandle, TeardownClock } from '../../src/transport/teardown.js';

export interface FakeProc {
  pgid: number;
  starttime: number;
  alive: boolean;
  ignoresTerm?: boolean;
  ignoresKill?: boolean;
  /** Exited and not yet reaped: listed, its stat says Z (gone, with its start time). */
  zombie?: boolean;
  /** statOf reports this instead of the real state. */
  evidence?: 'foreign' | 'unknown';
  /** Parent PID (default 1). */
  ppid?: number;
  /** The full `NAME=value` marker entries in its environment. */
  env?: readonly string[];
  /** markerOf reports `unreadable` (non-dumpable). */
  hidesEnviron?: boolean;
  /** Ignores SIGTERM while stopped until SIGCONT arrives. */
  stopped?: boolean;
  pendingTerm?: boolean;
}

/** A scripted process table: no real process is ever touched. */
export class ScriptedWorld implements ProcProbe {
  readonly procs = new Map<number, FakeProc>();
  readonly kills: { target: number; signal: NodeJS.Signals }[] = [];
  listingUnreadable = false;
  attributable = true;

  add(pid: number, p: Omit<FakeProc, 'alive'> & { alive?: boolean }): void {
    this.procs.set(pid, { alive: true, ...p });
  }

  canAttribute(): boolean {
    return this.attributable;
  }

  listPids(): PidListing {
    if (this.listingUnreadable) return { kind: 'unknown', reason: 'unreadable' };
    return { kind: 'list', pids: [...this.procs].filter(([, p]) => p.alive).map(([pid]) => pid) };
  }

  statOf(pid: number): PidEvidence {
    const p = this.procs.get(pid);
    if (p === undefined || !p.alive) return { kind: 'gone' };
    if (p.zombie === true) return { kind: 'gone', starttime: p.starttime };
    if (p.evidence === 'foreign') return { kind: 'foreign' };
    if (p.evidence === 'unknown') return { kind: 'unknown', reason: 'scripted' };
    return { kind: 'stat', pgid: p.pgid, starttime: p.starttime, ppid: p.ppid ?? 1 };
  }

  markerOf(pid: number, entry: string): MarkerEvidence {
    const p = this.procs.get(pid);
    if (p === undefined || !p.alive) return 'gone';
    if (p.hidesEnviron === true) return 'unreadable';
    return p.env?.includes(entry) === true ? 'marked' : 'unmarked';
  }

  kill(target: number, signal: NodeJS.Signals): void {
    this.kills.push({ target, signal });
    const victims =
      target < 0
        ? [...this.procs.values()].filter((p) => p.alive && p.pgid === -target)
        : [this.procs.get(target)];
    const live = victims.filter((p): p is FakeProc => p?.alive === true);
    if (live.length === 0) throw Object.assign(new Error('no such process'), { code: 'ESRCH' });
    for (const p of live) {
      if (signal === 'SIGCONT') p.stopped = false;
      if (signal === 'SIGTERM' && p.stopped === true) p.pendingTerm = true;
      else if (signal === 'SIGTERM' && p.ignoresTerm !== true) p.alive = false;
      if (signal === 'SIGCONT' && p.pendingTerm === true && p.ignoresTerm !== true) p.alive = false;
      if (signal === 'SIGKILL' && p.ignoresKill !== true) p.alive = false;
    }
  }

  signalled(pid: number): NodeJS.Signals[] {
    return this.kills.filter((k) => k.target === pid).map((k) => k.signal);
  }
}

/** A clock whose sleeps complete at once, advancing virtual time. */
export function virtualClock(): TeardownClock & { elapsed(): number } {
  let t = 0;
  return {
    now: () => t,
    sleep: (ms) => {
      t += ms;
      return Promise.resolve();
    },
    elapsed: () => t,
  };
}

/** A leader backed by the scripted world; it exits on stdin EOF unless `ignoresEof`. */
export function scriptedLeader(
  world: ScriptedWorld,
  pid: number,
  opts: { ignoresEof?: boolean } = {},
): LeaderHandle {
  const proc = world.procs.get(pid);
  return {
    pid,
    isAlive: () => proc?.alive === true,
    endStdin: () => {
      if (proc !== undefined && opts.ignoresEof !== true) proc.alive = false;
    },
    waitExit: () => Promise.resolve(proc?.alive !== true),
  };
}
