/**
 * A request given an AbortSignal: aborting stops the wait at once, removes the pending entry
 * and rejects with a typed, uncertain `request_aborted`; a late reply is then an unknown reply.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CodexRpcError } from '../../src/rpc/errors.js';
import { expectUncertain, startClient, track } from '../support/client-harness.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('aborting a request', () => {
  it('removes the pending entry and rejects with request_aborted, an uncertain failure', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { transport, client, seen } = startClient({ requestTimeoutMs: 1000 });
    const controller = new AbortController();
    const outcome = track(client.request('thread/start', {}, { signal: controller.signal }));
    await Promise.resolve();
    expect(outcome.state).toBe('pending');
    expect(client.pendingCount).toBe(1);
    controller.abort();
    await Promise.resolve();
    expect(outcome.state).toBe('rejected');
    expect(expectUncertain(outcome.value).providerCode).toBe('request_aborted');
    expect(client.pendingCount).toBe(0);
    // its deadline went with it
    expect(vi.getTimerCount()).toBe(0);
    // the reply that comes later names no pending request
    transport.push({ id: 1, result: {} });
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.drops).toContainEqual({ reason: 'unknown_reply' });
    transport.end();
    await client.ended;
  });

  it('with a signal aborted already, nothing is written', async () => {
    const { transport, client } = startClient();
    const controller = new AbortController();
    controller.abort();
    const outcome = track(client.request('thread/start', {}, { signal: controller.signal }));
    await Promise.resolve();
    expect(outcome.state).toBe('rejected');
    expect((outcome.value as CodexRpcError).providerCode).toBe('request_aborted');
    expect(transport.sentRaw).toEqual([]);
    expect(client.pendingCount).toBe(0);
  });

  it('a reply before the abort settles the request; the abort changes nothing after', async () => {
    const { transport, client } = startClient();
    const controller = new AbortController();
    const pending = client.request('thread/start', {}, { signal: controller.signal });
    transport.push({ id: 1, result: 'ok' });
    await expect(pending).resolves.toBe('ok');
    controller.abort();
    expect(client.pendingCount).toBe(0);
  });
});
