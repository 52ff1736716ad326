/**
 * /proc readings for benchmarks and long runs: the processes carrying a marker variable in their
 * environment (every descendant inherits it), their process group, RSS and PSS. Linux only.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface MarkedProc {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly comm: string;
  readonly rssKb: number;
  /** From smaps_rollup; 0 when it could not be read. */
  readonly pssKb: number;
}

function field(text: string, name: string): number {
  const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
  return m === null ? 0 : Number(m[1]);
}

/** Live (non-zombie) processes whose environment holds `name=value`. */
export function markedProcesses(name: string, value: string): MarkedProc[] {
  const needle = `${name}=${value}`;
  const out: MarkedProc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(needle)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const close = stat.lastIndexOf(')');
      const rest = stat.slice(close + 2).split(' ');
      if (rest[0] === 'Z') continue;
      let rssKb = 0;
      let pssKb = 0;
      try {
        const rollup = readFileSync(`/proc/${entry}/smaps_rollup`, 'latin1');
        rssKb = field(rollup, 'Rss');
        pssKb = field(rollup, 'Pss');
      } catch {
        rssKb = field(readFileSync(`/proc/${entry}/status`, 'latin1'), 'VmRSS');
      }
      out.push({
        pid,
        ppid: Number(rest[1]),
        pgid: Number(rest[2]),
        comm: stat.slice(stat.indexOf('(') + 1, close),
        rssKb,
        pssKb,
      });
    } catch {
      // exited while being read, or not ours to read
    }
  }
  return out;
}

export interface GroupUsage {
  readonly pgid: number;
  readonly processes: number;
  readonly rssKb: number;
  readonly pssKb: number;
}

/** Sums per process group; a group is reported only when its leader is among `procs`. */
export function byGroup(procs: readonly MarkedProc[]): {
  groups: GroupUsage[];
  outside: MarkedProc[];
} {
  const leaders = new Set(procs.filter((p) => p.pid === p.pgid).map((p) => p.pgid));
  const groups = new Map<number, { processes: number; rssKb: number; pssKb: number }>();
  const outside: MarkedProc[] = [];
  for (const p of procs) {
    if (!leaders.has(p.pgid)) {
      outside.push(p);
      continue;
    }
    const g = groups.get(p.pgid) ?? { processes: 0, rssKb: 0, pssKb: 0 };
    g.processes += 1;
    g.rssKb += p.rssKb;
    g.pssKb += p.pssKb;
    groups.set(p.pgid, g);
  }
  return { groups: [...groups].map(([pgid, g]) => ({ pgid, ...g })), outside };
}

export function openFdCount(): number {
  return readdirSync('/proc/self/fd').length;
}
