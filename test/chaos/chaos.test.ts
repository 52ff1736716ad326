/**
 * Chaos on real processes (see harness.ts). `npm test` runs a 20-session sample across every
 * case kind; `npm run test:chaos` runs 1,000 (CHAOS_SESSIONS, CHAOS_CONCURRENCY, and
 * CHAOS_REPORT=<file> to keep the Markdown summary).
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CASE_KINDS, type Features, type SessionResult } from './cases.js';
import { runChaosSession } from './harness.js';
import { probeFeatures } from './session-setup.js';

const SESSIONS = Number(process.env.CHAOS_SESSIONS ?? '20');
// four at a time, as the full run: most of a session is waiting (on a kill, a stall timeout, a
// dispose), and the sample takes about two thirds of the time it took two at a time
const CONCURRENCY = Number(process.env.CHAOS_CONCURRENCY ?? '4');

function summary(results: readonly SessionResult[], features: Features): string {
  const lines = [
    `features: watchdog=${String(features.watchdog)} ownedSweep=${String(features.ownedSweep)}; ${results.length} sessions, concurrency ${CONCURRENCY}`,
    '',
    '| case | sessions | outcomes | settled in window | settle ms (max) | dispose ok | leaked | typed |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const kind of CASE_KINDS) {
    const rs = results.filter((r) => r.kind === kind.name);
    if (rs.length === 0) continue;
    const outcomes = new Map<string, number>();
    for (const r of rs) outcomes.set(r.outcome, (outcomes.get(r.outcome) ?? 0) + 1);
    const settle = rs.flatMap((r) => (r.settleMs === undefined ? [] : [r.settleMs]));
    lines.push(
      `| ${kind.name}${kind.needs === undefined ? '' : ` (needs ${kind.needs})`} | ${rs.length} | ${[...outcomes].map(([o, n]) => `${o} ×${n}`).join(', ')} | ${rs.filter((r) => r.settledInWindow).length}/${rs.length} | ${settle.length === 0 ? '-' : Math.max(...settle)} | ${rs.filter((r) => r.dispose === 'ok').length}/${rs.length} | ${rs.reduce((n, r) => n + r.leaked, 0)} | ${rs.filter((r) => r.typed).length}/${rs.length} |`,
    );
  }
  return lines.join('\n');
}

describe('chaos on real processes', () => {
  it(
    `${SESSIONS} sessions across ${CASE_KINDS.length} failure kinds: settled, typed, nothing left`,
    async () => {
      const features = await probeFeatures();
      // both have landed (the kinds that need them are labelled in the table); a regression
      // that loses either fails here
      expect(features).toEqual({ watchdog: true, ownedSweep: true });
      const results: SessionResult[] = [];
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < SESSIONS) {
          const kind = CASE_KINDS[next++ % CASE_KINDS.length]!;
          results.push(await runChaosSession(kind.name, features));
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const table = summary(results, features);
      console.log(table);
      if (process.env.CHAOS_REPORT !== undefined)
        writeFileSync(process.env.CHAOS_REPORT, `${table}\n`);

      expect(results).toHaveLength(SESSIONS);
      expect(results.filter((r) => !r.typed)).toEqual([]);
      expect(results.filter((r) => !r.settledAfterDispose)).toEqual([]);
      expect(results.filter((r) => r.outcome.startsWith('harness:'))).toEqual([]);
      // a turn cannot succeed once its app-server was killed before or during it: a success
      // there means the harness killed something else (it once did, after PIDs wrapped)
      const killedBeforeEnd = /^kill9_leader_(at_|mid_stream|pending_approval)/;
      expect(
        results.filter((r) => killedBeforeEnd.test(r.kind) && r.outcome === 'run:succeeded'),
      ).toEqual([]);
      // every run settles by itself (the stall watchdog), nothing outlives dispose (the sweep)
      expect(results.filter((r) => !r.settledInWindow)).toEqual([]);
      expect(results.filter((r) => r.leaked > 0)).toEqual([]);
      expect(results.filter((r) => r.dispose !== 'ok')).toEqual([]);
    },
    4 * 3_600_000,
  );
});
