/**
 * What the run owns of its turn: usage counts its own turn only, and a host's interrupt never
 * waits on a frozen app-server once the run has settled.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  completed,
  push,
  startBound,
  turns,
  usage,
  waitForRequest,
  openedHarness,
  reply,
  turnStarted,
} from '../support/provider-frames.js';
import { recordingSink, textInput } from '../support/provider-harness.js';
import { openedWithRun } from '../support/session-runs.js';

afterEach(() => {
  vi.useRealTimers();
});

const t = (inputTokens: number, outputTokens: number) => ({
  inputTokens,
  outputTokens,
  totalTokens: inputTokens + outputTokens,
});

describe('the turn a run owns', () => {
  it("usage of another turn on the same thread is never added to the run's own", async () => {
    const { h, session, run, sink } = await openedWithRun();
    await push(
      h.transport,
      usage('t1', t(100, 10), t(100, 10)),
      // another turn of the thread (a background or review turn) spends 1000 + 100
      usage('other', t(1000, 100), t(1100, 110)),
      usage('t1', t(50, 5), t(1150, 115)),
      completed('t1', 'completed'),
    );
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(sink.ofType('run.usage').map((e) => e.usage)).toEqual([t(100, 10), t(150, 15)]);
    await session.dispose();
  });

  it("another turn's usage heard before the turn/start reply is not the run's", async () => {
    const { h, session } = await openedHarness();
    const sink = recordingSink();
    const starting = session.startRun({ input: textInput('hello'), sink, runRef: 'a' });
    await waitForRequest(h.transport, 'turn/start');
    // while turn/start is pending, another turn of the thread reports its spend (801 in)
    await push(h.transport, usage('other', t(801, 0), t(801, 0)));
    await reply(h.transport, 'turn/start', { turn: turnStarted('t1') });
    const run = await starting;
    // the run's own turn then uses 11 input tokens: the thread total is 812
    await push(h.transport, usage('t1', t(11, 0), t(812, 0)), completed('t1', 'completed'));
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(sink.ofType('run.usage').map((e) => e.usage)).toEqual([t(11, 0)]);
    await session.dispose();
  });

  it('a pending interrupt resolves as soon as the stall watchdog settled the run of a frozen app-server', async () => {
    const { h, session } = await openedHarness({ stallTimeoutMs: 5000, stallGraceMs: 1000 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { run } = await startBound(h, session, 'turn-1');
    // the host interrupts; codex is frozen and never answers turn/interrupt
    let interrupted = false;
    const interrupting = run.interrupt('stop').then(() => (interrupted = true));
    await waitForRequest(h.transport, 'turn/interrupt');
    vi.advanceTimersByTime(6000);
    expect(await run.completion).toMatchObject({
      outcome: 'failed',
      error: { providerCode: 'turn_stalled' },
    });
    await turns();
    expect(interrupted).toBe(true);
    await interrupting;
    vi.useRealTimers();
    await session.dispose();
  });
});
