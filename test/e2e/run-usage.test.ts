/**
 * `run.usage` is the run's own cumulative usage (ADR-0012), on the real binary:
 * a turn with a command and a follow-up counts both model requests, an interrupted turn that got
 * no model response reports nothing, and consecutive turns never carry each other's figures.
 */
import { describe, expect, it } from 'vitest';
import { execCommandStep, scriptedUsage, textStep } from '../../src/testing/index.js';
import { textInput } from '../support/provider-harness.js';
import { openRealCodex, recordingSink, waitForEvent } from '../support/real-codex.js';

describe('run.usage on the real binary', () => {
  it('a command turn (two model requests) reports the sum, growing monotonically', async () => {
    const codex = await openRealCodex();
    codex.server.enqueue(
      execCommandStep('echo usage-probe', { usage: scriptedUsage(500, 20, 0, 0) }),
      textStep('ran it', { usage: scriptedUsage(585, 20, 0, 0) }),
    );
    const sink = recordingSink();
    const run = await codex.session.startRun({ input: textInput('run it'), sink, runRef: 'cmd' });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
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
    const first = recordingSink();
    const run1 = await codex.session.startRun({
      input: textInput('one'),
      sink: first,
      runRef: 'u1',
    });
    expect(await run1.completion).toEqual({ outcome: 'succeeded' });
    expect(first.ofType('run.usage').at(-1)?.usage).toEqual({
      inputTokens: 1200,
      outputTokens: 30,
      totalTokens: 1230,
    });

    const second = recordingSink();
    const run2 = await codex.session.startRun({
      input: textInput('two'),
      sink: second,
      runRef: 'u2',
    });
    await waitForEvent(second, (e) => e.payload.type === 'run.message_delta', 'a delta');
    await run2.interrupt('enough');
    expect((await run2.completion).outcome).toBe('interrupted');
    // codex repeats the previous turn's figures on interrupt: none of that is this run's usage
    expect(second.ofType('run.usage')).toEqual([]);

    const third = recordingSink();
    const run3 = await codex.session.startRun({
      input: textInput('three'),
      sink: third,
      runRef: 'u3',
    });
    expect(await run3.completion).toEqual({ outcome: 'succeeded' });
    expect(third.ofType('run.usage').at(-1)?.usage).toEqual({
      inputTokens: 1300,
      outputTokens: 8,
      totalTokens: 1308,
    });
  });
});
