/**
 * `run.usage` is the run's own cumulative usage (ADR-0012), on the real binary:
 * a turn with a command and a follow-up counts both model requests, an interrupted turn that got
 * no model response reports nothing, and consecutive turns never carry each other's figures.
 */
import { describe, expect, it } from 'vitest';
import { execCommandStep, scriptedUsage, textStep } from '../../src/testing/index.js';
import { openRealCodex } from '../support/real-codex.js';
import * as turns from '../support/turns.js';

describe('run.usage on the real binary', () => {
  it('a command turn (two model requests) reports the sum, growing monotonically', async () => {
    const codex = await openRealCodex();
    codex.server.enqueue(
      execCommandStep('echo usage-probe', { usage: scriptedUsage(500, 20, 0, 0) }),
      textStep('ran it', { usage: scriptedUsage(585, 20, 0, 0) }),
    );
    const { sink, termination } = await turns.run(codex.session, 'run it', 'cmd');
    expect(termination).toEqual({ outcome: 'succeeded' });
    expect(codex.server.requests).toHaveLength(2);
    const usage = sink.ofType('run.usage').map((e) => e.usage);
    expect(usage.at(-1)).toEqual({ inputTokens: 1085, outputTokens: 40, totalTokens: 1125 });
    expect(usage[0]).toEqual({ inputTokens: 500, outputTokens: 20, totalTokens: 520 });
    for (let i = 1; i < usage.length; i++)
      expect(usage[i]!.totalTokens).toBeGreaterThan(usage[i - 1]!.totalTokens!);
  });

  it('an interrupted turn with no model response reports no usage; the next turn only its own', async () => {
    const codex = await openRealCodex();
    codex.server.enqueue(
      textStep('first', { usage: scriptedUsage(1200, 30, 0, 0) }),
      textStep(
        Array.from({ length: 40 }, (_, i) => `d${i} `),
        { delayMs: 150, usage: scriptedUsage(9_999, 999, 0, 0) },
      ),
      textStep('third', { usage: scriptedUsage(1300, 8, 0, 0) }),
    );
    const first = await turns.run(codex.session, 'one', 'u1');
    expect(first.termination).toEqual({ outcome: 'succeeded' });
    expect(turns.lastUsage(first.sink)).toEqual(turns.tokens(1200, 30, 1230));

    const second = await turns.start(codex.session, 'two', 'u2');
    await turns.firstDelta(second.sink);
    await second.run.interrupt('enough');
    expect((await second.run.completion).outcome).toBe('interrupted');
    // codex repeats the previous turn's figures on interrupt: none of that is this run's usage
    expect(second.sink.ofType('run.usage')).toEqual([]);

    const third = await turns.run(codex.session, 'three', 'u3');
    expect(third.termination).toEqual({ outcome: 'succeeded' });
    expect(turns.lastUsage(third.sink)).toEqual(turns.tokens(1300, 8, 1308));
  });
});
