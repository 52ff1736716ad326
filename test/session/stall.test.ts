/**
 * The stall watchdog through a session (ADR-0008), on the fake transport with fake timers:
 * warning, turn/interrupt, the run fails provider_unavailable / turn_stalled; a frozen peer
 * fences the session after the grace; null turns it off.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProviderHarness } from '../support/provider-harness.js';
import {
  completed,
  count,
  delta,
  push,
  startBound,
  THREAD,
  turns,
  waitForRequest,
  openedHarness,
} from '../support/provider-frames.js';

afterEach(() => {
  vi.useRealTimers();
});

const STALLED = {
  outcome: 'failed',
  error: { code: 'provider_unavailable', providerCode: 'turn_stalled', retryable: true },
};

describe('stall watchdog', () => {
  it('no frame for stallTimeoutMs: warning, turn/interrupt, and the interrupted turn fails turn_stalled', async () => {
    const { h, session } = await openedHarness({ stallTimeoutMs: 5000, stallGraceMs: 1000 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { run, sink } = await startBound(h, session, 'turn-1');
    await push(h.transport, delta('turn-1', 'partial'));
    vi.advanceTimersByTime(4999);
    await turns();
    expect(count(h.transport, 'turn/interrupt')).toBe(0);
    vi.advanceTimersByTime(1);
    const interrupt = await waitForRequest(h.transport, 'turn/interrupt');
    expect(interrupt.params).toEqual({ threadId: expect.any(String), turnId: 'turn-1' });
    expect(sink.ofType('diagnostic')).toEqual([
      expect.objectContaining({ level: 'warning', detail: { reason: 'turn_stalled' } }),
    ]);
    await push(h.transport, { id: interrupt.id, result: {} }, completed('turn-1', 'interrupted'));
    expect(await run.completion).toMatchObject(STALLED);
    // the thread stays usable: no fence
    expect(h.sessionSink.ofType('diagnostic').some((d) => d.message.includes('fenced'))).toBe(
      false,
    );
    await startBound(h, session, 'turn-2', 'turn-2', 1);
  });

  it('a frozen peer (no terminal frame within the grace) fences the session and settles the run', async () => {
    const { h, session } = await openedHarness({ stallTimeoutMs: 5000, stallGraceMs: 1000 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { run } = await startBound(h, session, 'turn-1');
    vi.advanceTimersByTime(5000);
    await waitForRequest(h.transport, 'turn/interrupt');
    vi.advanceTimersByTime(999);
    await turns();
    let settled = false;
    void run.completion.then(() => (settled = true));
    await turns();
    expect(settled).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await run.completion).toMatchObject(STALLED);
    expect(h.sessionSink.ofType('diagnostic').map((d) => d.detail)).toContainEqual({
      reason: 'turn_stalled_unresponsive',
    });
    await expect(
      session.startRun({
        input: { parts: [{ type: 'text', text: 'x' }] },
        sink: { emit: () => undefined },
        runRef: 'n',
      }),
    ).rejects.toMatchObject({ agentError: { code: 'illegal_state_transition' } });
  });

  it('a peer that acknowledges the interrupt and never completes the turn is fenced after the grace', async () => {
    const { h, session } = await openedHarness({ stallTimeoutMs: 5000, stallGraceMs: 1000 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { run } = await startBound(h, session, 'turn-1');
    vi.advanceTimersByTime(5000);
    const interrupt = await waitForRequest(h.transport, 'turn/interrupt');
    await push(h.transport, { id: interrupt.id, result: {} });
    vi.advanceTimersByTime(1000);
    expect(await run.completion).toMatchObject(STALLED);
    expect(h.sessionSink.ofType('diagnostic').map((d) => d.detail)).toContainEqual({
      reason: 'turn_stalled_unresponsive',
    });
    // exactly one interrupt was sent
    expect(count(h.transport, 'turn/interrupt')).toBe(1);
  });

  it('a running command is not a stall, however long it is silent', async () => {
    const { h, session } = await openedHarness({ stallTimeoutMs: 5000, stallGraceMs: 1000 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { run } = await startBound(h, session, 'turn-1');
    const item = { id: 'call_1', type: 'commandExecution', status: 'inProgress' };
    await push(h.transport, {
      method: 'item/started',
      params: { threadId: THREAD, turnId: 'turn-1', item },
    });
    vi.advanceTimersByTime(60_000);
    await turns();
    expect(count(h.transport, 'turn/interrupt')).toBe(0);
    await push(h.transport, completed('turn-1', 'completed'));
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
  });

  it('a host interrupt is still interrupted (not a stall); null turns the watchdog off', async () => {
    const { h, session } = await openedHarness({ stallTimeoutMs: null });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { run } = await startBound(h, session, 'turn-1');
    vi.advanceTimersByTime(3_600_000);
    await turns();
    expect(count(h.transport, 'turn/interrupt')).toBe(0);
    const interrupting = run.interrupt('user');
    const req = await waitForRequest(h.transport, 'turn/interrupt');
    await push(h.transport, { id: req.id, result: {} }, completed('turn-1', 'interrupted'));
    await interrupting;
    expect(await run.completion).toEqual({ outcome: 'interrupted', reason: 'user' });
  });

  it('refuses invalid values', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '100']) {
      expect(() => createProviderHarness({ stallTimeoutMs: bad as number })).toThrow();
    }
    expect(() => createProviderHarness({ stallGraceMs: 0 })).toThrow();
  });
});
