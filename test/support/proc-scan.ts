/**
 * The one /proc scanner of the test suite (Linux only): live processes with their group,
 * session, command line and environment. Leak checks, process-group checks and the CLI's
 * tests all read /proc through it.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat the tests use. */
export interface ProcStat {
  /** R, S, D, Z (zombie), X (dead), … */
  readonly state: string;
  readonly comm: string;
  readonly ppid: number;
  readonly pgid: number;
  readonly sid: number;
}

/** A live (non-zombie) process as seen in /proc. */
export interface LiveProcess {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly sid: number;
  readonly comm: string;
  /** The arguments, one per element. */
  readonly argv: readonly string[];
  /** The arguments joined by spaces. */
  readonly cmdline: string;
  readonly environ: readonly string[];
}

function parseStat(text: string): ProcStat {
  // comm may hold spaces and parentheses: the fields start after the last ')'
  const close = text.lastIndexOf(')');
  const f = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  return {
    state: f[0] ?? '',
    comm: text.slice(text.indexOf('(') + 1, close),
    ppid: Number(f[1]),
    pgid: Number(f[2]),
    sid: Number(f[3]),
  };
}

/** /proc/<pid>/stat, or undefined when there is no entry at all (reaped, never existed). */
export function procStat(pid: number): ProcStat | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return undefined;
  }
}

/** Every live process this user can read (Linux only). */
export function liveProcesses(): LiveProcess[] {
  const found: LiveProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      // cmdline and environ before stat: a child caught between fork and exec still shows its
      // parent's group; once cmdline shows the new program, its setsid/setpgid has happened
      // (both run before exec), so a stat read afterwards sees the final group and session
      const raw = readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0');
      const argv = raw.at(-1) === '' ? raw.slice(0, -1) : raw;
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0');
      const stat = parseStat(readFileSync(`/proc/${entry}/stat`, 'latin1'));
      if (stat.state === 'Z' || stat.state === 'X') continue;
      found.push({
        pid,
        ppid: stat.ppid,
        pgid: stat.pgid,
        sid: stat.sid,
        comm: stat.comm,
        argv,
        cmdline: raw.join(' '),
        environ,
      });
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return found;
}

/** Live processes whose environment holds exactly `entry` (`NAME=value`). */
export function processesWithEnv(entry: string): LiveProcess[] {
  return liveProcesses().filter((p) => p.environ.includes(entry));
}

/** Live processes whose command line contains `needle`. */
export function processesWithCmdline(needle: string): LiveProcess[] {
  return liveProcesses().filter((p) => p.cmdline.includes(needle));
}

/** Polls until `probe` returns a non-empty list, or fails after `timeoutMs` naming `label`. */
export async function waitForProcesses(
  probe: () => LiveProcess[],
  label: string,
  timeoutMs = 20_000,
): Promise<LiveProcess[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found.length > 0) return found;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
