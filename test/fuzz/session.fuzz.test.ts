/**
 * Property test: hostile frame sequences against one session (see hostile-session.ts for the
 * invariants). `npm test` runs a small count; `npm run test:fuzz` runs 100,000 cases
 * (FUZZ_RUNS, and FUZZ_SEED to replay a run; the seed is printed).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseArbitrary, runCase, type Action } from './hostile-session.js';
import { frameTemplates } from './templates.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? '150');
// a seed of our own (printed) instead of fast-check's hidden one: a passing run is then
// reproducible and citable, not only a failing one
const SEED =
  process.env.FUZZ_SEED === undefined
    ? Math.floor(Math.random() * 0x7fffffff)
    : Number(process.env.FUZZ_SEED);

describe('session fuzz: hostile peers, interrupts, responses and disposal', () => {
  it(`keeps every invariant over ${RUNS} generated cases`, async () => {
    let runs = 0;
    let settled = 0;
    await fc.assert(
      fc.asyncProperty(caseArbitrary(), async (actions) => {
        const report = await runCase(actions);
        runs += report.runs;
        settled += report.settled;
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    console.log(`fuzz: ${RUNS} cases passed, seed ${SEED}, ${runs} runs started and settled`);
    // the generator really starts and settles runs (a property over nothing proves nothing)
    expect(runs).toBeGreaterThan(RUNS / 4);
    expect(settled).toBe(runs);
  }, 3_600_000);

  it('the checker bites: a canary in a model delta (published verbatim by design) is reported', async () => {
    const templates = frameTemplates();
    const scenarios = [...new Set(templates.map((t) => t.scenario))];
    const textTurn = templates.filter((t) => t.scenario === 'text_turn');
    const firstDelta = textTurn.findIndex((t) => t.method === 'item/agentMessage/delta');
    const deltaTemplate = templates.indexOf(textTurn[firstDelta]!);
    const deltaKeys = Object.keys(
      (JSON.parse(textTurn[firstDelta]!.text) as { params: object }).params,
    );
    const actions: Action[] = [
      {
        t: 'scenario',
        scenario: scenarios.indexOf('text_turn'),
        cut: firstDelta,
        mutateEvery: 1_000,
        leaf: 1,
        value: null,
        mutation: 'none',
      },
      {
        t: 'frame',
        template: deltaTemplate,
        to: 'live',
        which: 0,
        mutation: 'canary',
        leaf: deltaKeys.indexOf('delta'),
        value: null,
      },
    ];
    await expect(runCase(actions)).resolves.toMatchObject({ runs: 1, settled: 1 });
    await expect(runCase(actions, { canaryEverywhere: true })).rejects.toThrow(
      'a canary secret was published',
    );
  });
});
