import { readdirSync, readFileSync } from 'node:fs';

/** A live (non-zombie) process as seen in /proc. */
export interface LiveProcess {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly sid: number;
  readonly cmdline: string;
  readonly environ: readonly string[];
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
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0').join(' ');
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0');
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const f = stat
        .slice(stat.lastIndexOf(')') + 1)
        .trim()
        .split(/\s+/);
      if (f[0] === 'Z' || f[0] === 'X') continue;
      found.push({
        pid,
        ppid: Number(f[1]),
        pgid: Number(f[2]),
        sid: Number(f[3]),
        cmdline,
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
