/**
 * The memory of the codex app-servers this process started, for the CLI's OTLP export: the
 * resident set (VmRSS) of each direct child whose argv holds `app-server`, read from Linux
 * `/proc` at each metric collection. Elsewhere, or with none running, nothing is observed.
 */
import { readdirSync, readFileSync } from 'node:fs';

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // gone between the listing and the read, or not ours to read
  }
}

/** The parent pid in a `/proc/<pid>/stat` line (the comm may hold spaces and parentheses). */
function parentOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[1]);
}

/** Bytes resident, summed over this process's codex app-servers; undefined without `/proc`. */
export function codexResidentBytes(parent: number = process.pid): number | undefined {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return undefined;
  }
  let bytes = 0;
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (stat === undefined || parentOf(stat) !== parent) continue;
    const argv = read(`/proc/${name}/cmdline`)?.split('\0') ?? [];
    if (!argv.includes('app-server')) continue;
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(read(`/proc/${name}/status`) ?? '')?.[1];
    if (kb !== undefined) bytes += Number(kb) * 1024;
  }
  return bytes;
}
