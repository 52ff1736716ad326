/**
 * Replay of the recorded text turn with another turn's usage heard while `turn/start` is
 * pending (the recorded `warning` before the reply becomes that update): the run reports its own
 * turn's usage only, never what the other turn spent.
 */
import { describe, expect, it } from 'vitest';
import { loadTranscript } from '../support/replay.js';
import { replayedRun } from '../support/session-runs.js';

type Totals = Record<'inputTokens' | 'outputTokens' | 'totalTokens', number>;
interface UsageParams {
  readonly turnId: string;
  readonly tokenUsage: { readonly total: Totals; readonly last: Totals };
}

const OTHER: Totals = { inputTokens: 801, outputTokens: 0, totalTokens: 801 };

const plus = (a: Totals, b: Totals): Totals => ({
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
  totalTokens: a.totalTokens + b.totalTokens,
});

describe('usage heard before the run is bound', () => {
  it("another turn's update before the turn/start reply is not counted into the run", async () => {
    const lines = loadTranscript('text_turn');
    const recordedUsage = lines.filter((l) => l.frame.method === 'thread/tokenUsage/updated');
    // one model response: the run's own usage is the thread total it reached from zero
    expect(recordedUsage).toHaveLength(1);
    const own = recordedUsage[0]!.frame as { params: UsageParams };
    const ownTotal = own.params.tokenUsage.total;
    const turnStartAt = lines.find((l) => l.frame.method === 'turn/start')!.seq;
    const replyAt = lines.find(
      (l) => l.seq > turnStartAt && l.dir === 's2c' && 'result' in l.frame,
    )!.seq;
    const early = lines.find((l) => l.seq > turnStartAt && l.seq < replyAt && l.dir === 's2c');
    expect(early?.frame.method).toBe('warning');

    const { session, sink, termination } = await replayedRun('text_turn', 'hi', 'r1', {
      release: 'pinned',
      rewrite: (frame, line) => {
        if (line.seq === early!.seq) {
          // another turn of the thread, its total reported while turn/start is pending
          const params = { ...own.params, turnId: 'another-turn' };
          return {
            ...own,
            params: { ...params, tokenUsage: { ...params.tokenUsage, total: OTHER, last: OTHER } },
          };
        }
        if (line.seq === recordedUsage[0]!.seq) {
          const params = frame.params as UsageParams;
          return {
            ...frame,
            params: {
              ...params,
              tokenUsage: { ...params.tokenUsage, total: plus(OTHER, ownTotal) },
            },
          };
        }
        return frame;
      },
    });
    expect(termination).toEqual({ outcome: 'succeeded' });
    expect(sink.ofType('run.usage').map((e) => e.usage)).toEqual([
      {
        inputTokens: ownTotal.inputTokens,
        outputTokens: ownTotal.outputTokens,
        totalTokens: ownTotal.totalTokens,
      },
    ]);
    await session.dispose();
  });
});
