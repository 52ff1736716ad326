import { readdirSync, readFileSync } from 'node:fs';

/** Set by the global setup in the vitest process (workers inherit it). */
export const RUN_ID_VAR = 'RELVO_TEST_RUN_ID';
/** The variable that tags every process a test starts (directly or through a descendant). */
export const LEAK_MARKER_VAR = 'RELVO_TEST_CHILD_MARKER';

export interface MarkedProcess {
  readonly pid: number;
  readonly comm: string;
}

/** Scan /proc for live processes whose environment carries `marker`. Linux only. */
export function findMarkedProcesses(marker: string): MarkedProcess[] {
  const needle = `${LEAK_MARKER_VAR}=${marker}`;
  const found: MarkedProcess[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (!environ.split('\0').includes(needle)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      // a zombie is already dead; its parent just has not reaped it yet
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z') continue;
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      found.push({ pid, comm });
    } catch {
      // raced with exit, or not readable
    }
  }
  return found;
}
