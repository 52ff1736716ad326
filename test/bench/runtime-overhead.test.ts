import { describe, expect, it } from 'vitest';
import { runtimeOverhead } from '../../bench/runtime.js';

/*
 * The runtime bench forks one process per contestant and pairs their rounds; this runs it at
 * its smallest so that `npm run bench:runtime` cannot rot unnoticed. Timings are not asserted:
 * only that every contestant ran the turns, and the shape of what the table is made from. The
 * suite's leak check finds a child left behind (children inherit its marker).
 */
describe('bench/runtime.ts', () => {
  it('runs each contestant in its own process and pairs their rounds', async () => {
    const r = await runtimeOverhead({
      turns: 3,
      deltas: 4,
      generations: 2,
      warmRounds: 1,
      rounds: 2,
    });
    expect(r.rows.map((row) => row.path)).toEqual([
      'adapter alone (counting sink)',
      'runtime, in-memory event store',
      'runtime, in-memory, telemetry: {} with no SDK (API no-op)',
      'runtime, in-memory, telemetry with the OpenTelemetry SDK',
      'runtime, SQLite synchronous=NORMAL',
      'runtime, SQLite synchronous=FULL',
    ]);
    const [adapter, ...runtime] = r.rows;
    // the adapter's sink sees the deltas of each turn; the runtime appends its own envelopes too
    expect(adapter!.eventsPerTurn).toBeGreaterThanOrEqual(4);
    for (const row of runtime) {
      expect(row.eventsPerTurn).toBeGreaterThan(adapter!.eventsPerTurn);
      expect(row.cpuRatio).toBeGreaterThan(0);
      expect(Number.isFinite(row.cpuRatio)).toBe(true);
      expect(row.cpuRatioRange[0]).toBeLessThanOrEqual(row.cpuRatioRange[1]);
    }
    expect(adapter!.cpuRatio).toBe(1);
  }, 120_000);
});
