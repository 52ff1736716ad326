/** Request deadlines: the default and per-request timeouts, the clock, and late replies. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CodexRpcError } from '../../src/rpc/errors.js';
import { expectUncertain, startClient, track } from '../support/client-harness.js';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('deadlines', () => {
  it('rejects with request_timeout at the deadline, as an uncertain failure', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { transport, client } = startClient({ requestTimeoutMs: 1000 });
    const outcome = track(client.request('thread/start', {}));
    await vi.advanceTimersByTimeAsync(999);
    expect(outcome.state).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome.state).toBe('rejected');
    expect(expectUncertain(outcome.value).agentError).toMatchObject({
      code: 'provider_unavailable',
      retryable: true,
      providerCode: 'request_timeout',
    });
    expect(client.pendingCount).toBe(0);
    transport.end();
    await client.ended;
  });

  it('clears the deadline when the reply arrives first', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { transport, client } = startClient({ requestTimeoutMs: 1000 });
    const pending = client.request('thread/start', {});
    expect(vi.getTimerCount()).toBe(1);
    transport.push({ id: 1, result: 'ok' });
    await expect(pending).resolves.toBe('ok');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('honours a per-request timeout over the default', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { client } = startClient({ requestTimeoutMs: 0 });
    const outcome = track(client.request('thread/start', {}, { timeoutMs: 50 }));
    await vi.advanceTimersByTimeAsync(50);
    expect(outcome.state).toBe('rejected');
    expect((outcome.value as CodexRpcError).providerCode).toBe('request_timeout');
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])(
    'a deadline of %s is disabled',
    async (ms) => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const { client } = startClient({ requestTimeoutMs: ms });
      const outcome = track(client.request('thread/start', {}));
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(10 * 365 * 24 * 3600 * 1000);
      expect(outcome.state).toBe('pending');
    },
  );

  it('a late reply after a timeout never settles a newer request', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { transport, client, seen } = startClient({ requestTimeoutMs: 100 });
    const older = track(client.request('thread/start', {}));
    await vi.advanceTimersByTimeAsync(100);
    expect(older.state).toBe('rejected');
    const newer = track(client.request('thread/start', {}));
    transport.push({ id: 1, result: 'late' });
    await transport.drained();
    expect(seen.drops).toEqual([{ reason: 'unknown_reply' }]);
    expect(newer.state).toBe('pending');
    transport.push({ id: 2, result: 'mine' });
    await transport.drained();
    expect(newer).toEqual({ state: 'resolved', value: 'mine' });
  });

  it('the default clock unrefs its timer so a deadline never keeps the process alive', async () => {
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const { transport, client } = startClient({ requestTimeoutMs: 60_000 });
    const pending = client.request('thread/start', {});
    expect(spy).toHaveBeenCalledTimes(1);
    const timer = spy.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    transport.end();
    await expect(pending).rejects.toBeInstanceOf(CodexRpcError);
  });

  it('uses an injected clock', async () => {
    const timers: { fn: () => void; ms: number }[] = [];
    const cleared: unknown[] = [];
    const { client } = startClient({
      requestTimeoutMs: 5,
      clock: {
        setTimeout: (fn, ms) => timers.push({ fn, ms }),
        clearTimeout: (h) => cleared.push(h),
      },
    });
    const outcome = track(client.request('thread/start', {}));
    expect(timers.map((t) => t.ms)).toEqual([5]);
    timers[0]!.fn();
    await Promise.resolve();
    expect(outcome.state).toBe('rejected');
    expect(cleared).toEqual([1]);
  });
});
