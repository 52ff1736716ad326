/**
 * An interrupt that reaches codex after the turn/start reply but before `turn/started`: on a
 * persisted thread codex 0.171.0 refuses it (`{"code":-32600,"message":"no active turn to
 * interrupt"}`, measured) and applies the same request once the turn is active. The run sends it
 * once more on `turn/started`, within the request deadline, and never past its own settlement.
 */
import { isProviderRejection } from '@relvo-labs/agent-provider';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  THREAD,
  completed,
  count,
  openedHarness,
  push,
  reply,
  replyError,
  startBound,
  turns,
  waitForRequest,
} from '../support/provider-frames.js';

const TURN = 'turn-early';
/** codex 0.171.0's answer to turn/interrupt before turn/started on a persisted thread. */
const NOT_ACTIVE = { code: -32600, message: 'no active turn to interrupt' } as const;

function turnStartedFrame(turnId: string): Record<string, unknown> {
  return {
    method: 'turn/started',
    params: { threadId: THREAD, turn: { id: turnId, items: [], status: 'inProgress' } },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('interrupt between the turn/start reply and turn/started', () => {
  it('is sent once more when the turn becomes active, and the run ends interrupted', async () => {
    const { h, session } = await openedHarness();
    const { run } = await startBound(h, session, TURN);
    let outcome: 'resolved' | 'rejected' | undefined;
    const interrupting = run.interrupt('stop').then(
      () => (outcome = 'resolved'),
      () => (outcome = 'rejected'),
    );
    await replyError(h.transport, 'turn/interrupt', NOT_ACTIVE.code, NOT_ACTIVE.message);
    await turns();
    // held: neither failed to the host nor sent again before codex says the turn is active
    expect(outcome).toBeUndefined();
    expect(count(h.transport, 'turn/interrupt')).toBe(1);
    await push(h.transport, turnStartedFrame(TURN));
    const second = await waitForRequest(h.transport, 'turn/interrupt', 1);
    expect(second.params).toEqual({ threadId: THREAD, turnId: TURN });
    await reply(h.transport, 'turn/interrupt', {}, 1);
    await interrupting;
    expect(outcome).toBe('resolved');
    await push(h.transport, completed(TURN, 'interrupted'));
    expect(await run.completion).toEqual({ outcome: 'interrupted', reason: 'stop' });
    expect(count(h.transport, 'turn/interrupt')).toBe(2);
  });

  it('resolves without a resend when the run settles before the turn became active', async () => {
    const { h, session } = await openedHarness();
    const { run } = await startBound(h, session, TURN);
    const interrupting = run.interrupt();
    await replyError(h.transport, 'turn/interrupt', NOT_ACTIVE.code, NOT_ACTIVE.message);
    await push(h.transport, completed(TURN, 'completed'));
    await expect(interrupting).resolves.toBeUndefined();
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    await turns();
    expect(count(h.transport, 'turn/interrupt')).toBe(1);
  });

  it('a refusal after turn/started is final: no resend, the host hears the refusal', async () => {
    const { h, session } = await openedHarness();
    const { run } = await startBound(h, session, TURN);
    await push(h.transport, turnStartedFrame(TURN));
    const interrupting = run.interrupt().catch((e: unknown) => e);
    await replyError(h.transport, 'turn/interrupt', NOT_ACTIVE.code, NOT_ACTIVE.message);
    const error = await interrupting;
    expect(isProviderRejection(error)).toBe(true);
    await turns();
    expect(count(h.transport, 'turn/interrupt')).toBe(1);
  });

  it('another refusal before turn/started is not held', async () => {
    const { h, session } = await openedHarness();
    const { run } = await startBound(h, session, TURN);
    const interrupting = run.interrupt().catch((e: unknown) => e);
    await replyError(h.transport, 'turn/interrupt', -32600, 'something else');
    const error = await interrupting;
    expect(isProviderRejection(error)).toBe(true);
    expect(count(h.transport, 'turn/interrupt')).toBe(1);
  });

  it('waits for turn/started no longer than the request deadline, then fails as refused', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { h, session } = await openedHarness({ requestTimeoutMs: 5_000 });
    const { run } = await startBound(h, session, TURN);
    let settled: unknown = 'pending';
    const interrupting = run.interrupt().then(
      () => (settled = 'resolved'),
      (e: unknown) => (settled = e),
    );
    await replyError(h.transport, 'turn/interrupt', NOT_ACTIVE.code, NOT_ACTIVE.message);
    await turns();
    await vi.advanceTimersByTimeAsync(4_999);
    expect(settled).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    await interrupting;
    expect(isProviderRejection(settled)).toBe(true);
    expect(count(h.transport, 'turn/interrupt')).toBe(1);
  });
});
