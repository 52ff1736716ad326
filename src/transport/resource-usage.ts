/** Resource usage of the owned process group via pidusage (leader plus recorded members). */
import pidusage from 'pidusage';
import type { CodexResourceUsage } from './types.js';

export async function measureProcesses(pids: readonly number[]): Promise<CodexResourceUsage> {
  const results = await Promise.allSettled(pids.map((pid) => pidusage(pid)));
  let rssBytes = 0;
  let cpuPercent = 0;
  let processes = 0;
  for (const r of results) {
    // a process that exited between listing and measuring is simply not counted
    if (r.status !== 'fulfilled') continue;
    rssBytes += r.value.memory;
    cpuPercent += r.value.cpu;
    processes += 1;
  }
  return { rssBytes, cpuPercent, processes };
}
