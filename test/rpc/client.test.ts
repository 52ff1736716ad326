import { isProviderRejection, ProviderRejection } from '@relvo-labs/agent-provider';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CodexRpcError, isAuthoritativeFailure, isCodexRpcError } from '../../src/rpc/errors.js';
import { CodexTransportError } from '../../src/transport/types.js';
import { within } from '../support/stand-ins.js';
import {
  INITIALIZE_PARAMS,
  INTERRUPT_PARAMS,
  startClient,
  track,
} from '../support/client-harness.js';

const CANARY = 'CANARY-server-text-5512';

afterEach(() => {
  vi.useRealTimers();
});

describe('outbound frames', () => {
  it('numbers requests from 1, strictly increasing, with no jsonrpc member', async () => {
    const { transport, client } = startClient();
    track(client.request('initialize', INITIALIZE_PARAMS));
    track(client.request('thread/start', {}));
    track(client.request('turn/interrupt', INTERRUPT_PARAMS));
    expect(transport.sentRaw).toEqual([
      { id: 1, method: 'initialize', params: INITIALIZE_PARAMS },
      { id: 2, method: 'thread/start', params: {} },
      { id: 3, method: 'turn/interrupt', params: INTERRUPT_PARAMS },
    ]);
    for (const frame of transport.sentRaw)
      expect(Object.hasOwn(frame as object, 'jsonrpc')).toBe(false);
    transport.end();
    await client.ended;
  });

  it('never reuses an id, even after replies, timeouts and errors', async () => {
    const { transport, client } = startClient();
    const first = client.request('thread/start', {});
    transport.push({ id: 1, result: {} });
    await first;
    const second = client.request('thread/start', {});
    transport.push({ id: 2, error: { code: -32600, message: 'x' } });
    await expect(second).rejects.toBeInstanceOf(ProviderRejection);
    track(client.request('thread/start', {}));
    const ids = transport.sentRaw.map((f) => (f as { id: number }).id);
    expect(ids).toEqual([1, 2, 3]);
    transport.end();
    await client.ended;
  });

  it('sends a notification without params as a frame with no params member', () => {
    const { transport, client } = startClient();
    client.notify('initialized');
    const [frame] = transport.sentRaw;
    expect(frame).toEqual({ method: 'initialized' });
    expect(Object.hasOwn(frame as object, 'params')).toBe(false);
    expect(Object.hasOwn(frame as object, 'id')).toBe(false);
  });
});

describe('replies', () => {
  it('resolves with the result, including null and an explicit undefined', async () => {
    const { transport, client } = startClient();
    const a = client.request('thread/start', {});
    const b = client.request('thread/start', {});
    const c = client.request('thread/start', {});
    transport.push({ id: 2, result: null });
    transport.push({ id: 1, result: { thread: 'x' } });
    transport.push({ id: 3, result: undefined });
    await expect(a).resolves.toEqual({ thread: 'x' });
    await expect(b).resolves.toBeNull();
    await expect(c).resolves.toBeUndefined();
    expect(client.pendingCount).toBe(0);
  });

  it('rejects a wire error with a ProviderRejection that never carries the server text', async () => {
    const { transport, client, seen } = startClient();
    const pending = client.request('turn/interrupt', INTERRUPT_PARAMS);
    transport.push({
      id: 1,
      error: { code: -32600, message: `${CANARY} ghp_abcdefghijklmnopqrstuv`, data: CANARY },
    });
    const error: unknown = await pending.catch((e: unknown) => e);
    expect(isProviderRejection(error)).toBe(true);
    expect((error as ProviderRejection).message).toBe(
      'codex rejected turn/interrupt (invalid_request)',
    );
    expect(isAuthoritativeFailure(error)).toBe(true);
    expect(JSON.stringify((error as ProviderRejection).agentError)).not.toContain(CANARY);
    expect(String((error as Error).stack)).not.toContain(CANARY);
    expect(JSON.stringify(seen)).not.toContain(CANARY);
  });

  it('drops a reply naming no pending id as unknown_reply', async () => {
    const { transport, client, seen } = startClient();
    const pending = client.request('thread/start', {});
    transport.push({ id: 99, result: {} });
    transport.push({ id: '1', result: {} }); // a string id never names our numeric id
    transport.push({ id: 7, error: { code: -32600, message: CANARY } });
    await transport.drained();
    expect(seen.drops).toEqual([
      { reason: 'unknown_reply' },
      { reason: 'unknown_reply' },
      { reason: 'unknown_reply' },
    ]);
    expect(track(pending).state).toBe('pending');
    expect(client.pendingCount).toBe(1);
    transport.push({ id: 1, result: { ok: true } });
    await expect(pending).resolves.toEqual({ ok: true });
    expect(JSON.stringify(seen)).not.toContain(CANARY);
  });

  it('drops a second reply for an already settled id', async () => {
    const { transport, client, seen } = startClient();
    const pending = client.request('thread/start', {});
    transport.push({ id: 1, result: 'first' });
    transport.push({ id: 1, result: 'second' });
    await expect(pending).resolves.toBe('first');
    await transport.drained();
    expect(seen.drops).toEqual([{ reason: 'unknown_reply' }]);
  });

  it('drops unclassifiable frames and stays usable', async () => {
    const { transport, client, seen } = startClient();
    const pending = client.request('thread/start', {});
    transport.push(42);
    transport.push({ id: 1 });
    transport.push({ id: 1, result: 1, error: { code: 1, message: CANARY } });
    transport.push({ id: 1, error: { code: 'x', message: CANARY } });
    transport.push({ method: 'x', id: 1, result: 1 });
    transport.push({ id: 1, result: 'ok' });
    await expect(pending).resolves.toBe('ok');
    expect(seen.drops).toEqual([
      { reason: 'unclassifiable', detail: 'not_object' },
      { reason: 'unclassifiable', detail: 'id_only' },
      { reason: 'unclassifiable', detail: 'result_and_error' },
      { reason: 'unclassifiable', detail: 'bad_error_body' },
      { reason: 'unclassifiable', detail: 'method_with_reply' },
    ]);
    expect(client.isEnded).toBe(false);
  });

  it('delivers notifications and survives a throwing notification handler', async () => {
    const notifications: unknown[] = [];
    const { transport, seen } = startClient({
      onNotification: (n) => {
        if (n.method === 'boom') throw new Error(CANARY);
        notifications.push(n);
      },
    });
    transport.push({ method: 'boom', params: {} });
    transport.push({ method: 'turn/started', params: { turn: 1 }, emittedAtMs: 3 });
    await transport.drained();
    expect(notifications).toEqual([{ method: 'turn/started', params: { turn: 1 } }]);
    expect(seen.diagnostics).toEqual([{ token: 'callback_failed', level: 'warning' }]);
    expect(JSON.stringify(seen)).not.toContain(CANARY);
  });
});

describe('a host transport that breaks the send contract', () => {
  it('a throwing send() rejects the request without leaving it pending or its deadline armed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { transport, client } = startClient({ requestTimeoutMs: 1000 });
    transport.send = () => {
      throw new Error(CANARY);
    };
    await expect(client.request('thread/start', {})).rejects.toThrow();
    expect(client.pendingCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('stream end', () => {
  it('settles every pending request with connection_lost on EOF', async () => {
    const { transport, client, seen } = startClient();
    const a = client.request('thread/start', {});
    const b = client.request('turn/interrupt', INTERRUPT_PARAMS);
    transport.end();
    for (const p of [a, b]) {
      const error: unknown = await p.catch((e: unknown) => e);
      expect(isCodexRpcError(error)).toBe(true);
      expect(isAuthoritativeFailure(error)).toBe(false);
      expect((error as CodexRpcError).agentError).toMatchObject({
        code: 'provider_unavailable',
        providerCode: 'connection_lost',
      });
    }
    await expect(client.ended).resolves.toEqual({ kind: 'eof' });
    expect(seen.ends).toEqual([{ kind: 'eof' }]);
    expect(client.isEnded).toBe(true);
  });

  it.each([
    [Object.assign(new Error(CANARY), { code: 'EPIPE' }), 'EPIPE'],
    [new CodexTransportError('stdout_error', { cause: 'ECONNRESET' }), 'stdout_error'],
    [Object.assign(new Error(CANARY), { name: 'AbortError' }), 'ABORT_ERR'],
    [new Error(CANARY), 'unknown'],
    [CANARY, 'unknown'],
  ])(
    'settles pending requests on a failure and reports a cause token (%#)',
    async (cause, token) => {
      const { transport, client, seen } = startClient();
      const pending = client.request('thread/start', {});
      transport.fail(cause);
      await expect(pending).rejects.toMatchObject({ providerCode: 'connection_lost' });
      await expect(client.ended).resolves.toEqual({ kind: 'failed', causeToken: token });
      expect(seen.ends).toEqual([{ kind: 'failed', causeToken: token }]);
      expect(JSON.stringify(seen)).not.toContain(CANARY);
    },
  );

  it('a failure whose value cannot be inspected still ends the client and settles requests', async () => {
    const { transport, client, seen } = startClient();
    const pending = client.request('thread/start', {});
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    transport.fail(proxy);
    await expect(within(2_000, 'connection_lost', pending)).rejects.toMatchObject({
      providerCode: 'connection_lost',
    });
    await expect(within(2_000, 'client end', client.ended)).resolves.toEqual({
      kind: 'failed',
      causeToken: 'unknown',
    });
    expect(seen.ends).toEqual([{ kind: 'failed', causeToken: 'unknown' }]);
  });

  it('rejects a request after the end with connection_closed, without writing it', async () => {
    const { transport, client } = startClient();
    transport.end();
    await client.ended;
    const error: unknown = await client
      .request('turn/interrupt', INTERRUPT_PARAMS)
      .catch((e: unknown) => e);
    expect(isProviderRejection(error)).toBe(true);
    expect((error as ProviderRejection).agentError).toMatchObject({
      code: 'provider_unavailable',
      providerCode: 'connection_closed',
    });
    expect(isAuthoritativeFailure(error)).toBe(true);
    expect(transport.sentRaw).toEqual([]);
  });

  it('silently drops a notification after the end', async () => {
    const { transport, client, seen } = startClient();
    transport.end();
    await client.ended;
    expect(() => {
      client.notify('initialized');
    }).not.toThrow();
    expect(transport.sentRaw).toEqual([]);
    expect(seen.diagnostics).toEqual([]);
  });

  it('calls onEnd once even when the end callback throws', async () => {
    let calls = 0;
    const { transport, client, seen } = startClient({
      onEnd: () => {
        calls += 1;
        throw new Error(CANARY);
      },
    });
    transport.end();
    await expect(client.ended).resolves.toEqual({ kind: 'eof' });
    expect(calls).toBe(1);
    expect(seen.diagnostics).toEqual([{ token: 'callback_failed', level: 'warning' }]);
  });
});
