/**
 * The outbound map and the typed request: every mapped method is one codex accepts, every
 * recorded reply passes its schema, and a reply that fails it is a typed, uncertain
 * `reply_invalid`, never an untyped value; members codex adds are kept; deadline and abort
 * reach the client.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isProviderRejection } from '@relvo-labs/agent-provider';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OUTBOUND, type OutboundMethod } from '../../src/protocol/outbound.js';
import { CodexConnection } from '../../src/rpc/connection.js';
import type { CodexRpcError } from '../../src/rpc/errors.js';
import { isReplyInvalid } from '../../src/rpc/requests.js';
import { expectUncertain, track } from '../support/client-harness.js';
import { loadPinnedSchemas, useFakeTransport } from '../support/fake-transport.js';
import { TRANSCRIPTS_DIR } from '../support/paths.js';
import { loadTranscript } from '../support/replay.js';

afterEach(() => {
  vi.useRealTimers();
});

const MAPPED = Object.keys(OUTBOUND) as OutboundMethod[];

function isMapped(method: unknown): method is OutboundMethod {
  return typeof method === 'string' && method in OUTBOUND;
}

/** Every recorded reply to a mapped request, with the method it answers. */
function recordedReplies(): { method: OutboundMethod; result: unknown }[] {
  const replies: { method: OutboundMethod; result: unknown }[] = [];
  for (const version of readdirSync(TRANSCRIPTS_DIR)) {
    for (const file of readdirSync(join(TRANSCRIPTS_DIR, version))) {
      if (!file.endsWith('.jsonl')) continue;
      const asked = new Map<unknown, OutboundMethod>();
      for (const { dir, frame } of loadTranscript(file.slice(0, -'.jsonl'.length), version)) {
        if (dir === 'c2s' && isMapped(frame['method'])) asked.set(frame['id'], frame['method']);
        const method = dir === 's2c' && 'result' in frame ? asked.get(frame['id']) : undefined;
        if (method !== undefined) replies.push({ method, result: frame['result'] });
      }
    }
  }
  return replies;
}

function connectionOver(requestTimeoutMs = 0) {
  const transport = useFakeTransport();
  const connection = new CodexConnection(transport, { requestTimeoutMs });
  return { transport, connection };
}

function expectReplyInvalid(error: unknown): void {
  expect(isReplyInvalid(error)).toBe(true);
  // codex answered: what it did is unknown, so this is not a definite refusal
  expect(expectUncertain(error).agentError).toMatchObject({
    code: 'provider_contract_violation',
    providerCode: 'reply_invalid',
  });
}

describe('the outbound map', () => {
  it('maps only methods the pinned schema lists as client requests', () => {
    const schemas = loadPinnedSchemas();
    const unknown = MAPPED.filter((method) => schemas.clientRequest(method) === undefined);
    expect(unknown).toEqual([]);
    expect(MAPPED.length).toBeGreaterThanOrEqual(16);
  });

  it('accepts every recorded reply to a mapped request (the recordings win)', () => {
    const replies = recordedReplies();
    const refused = replies
      .filter(({ method, result }) => !OUTBOUND[method].result.safeParse(result).success)
      .map(({ method }) => method);
    expect(refused).toEqual([]);
    const methods = new Set(replies.map((r) => r.method));
    for (const method of ['initialize', 'thread/start', 'turn/start', 'turn/steer'] as const) {
      expect(methods).toContain(method);
    }
  });
});

describe('a typed request', () => {
  it('types and returns the checked reply, keeping the members codex adds', async () => {
    const { transport, connection } = connectionOver();
    const pending = connection.request('turn/start', { threadId: 'thr_1', input: [] });
    transport.push({ id: 1, result: { turn: { id: 'turn_1', status: 'inProgress' }, extra: 7 } });
    const result = await pending;
    expect(result.turn.id).toBe('turn_1');
    expect(result).toMatchObject({ extra: 7, turn: { status: 'inProgress' } });
  });

  it('a reply missing a required member is reply_invalid, never the value', async () => {
    const { transport, connection } = connectionOver();
    const started = track(connection.request('turn/start', { threadId: 'thr_1', input: [] }));
    const steered = track(
      connection.request('turn/steer', { threadId: 'thr_1', expectedTurnId: 't', input: [] }),
    );
    transport.push({ id: 1, result: { turn: {} } });
    transport.push({ id: 2, result: { turnId: 42 } });
    await vi.waitFor(() => {
      expect(steered.state).toBe('rejected');
    });
    expect(started.state).toBe('rejected');
    expectReplyInvalid(started.value);
    expectReplyInvalid(steered.value);
    // the server's reply is not echoed
    expect((started.value as Error).message).toBe('codex answered turn/start unusably');
  });

  it('account/read without requiresOpenaiAuth is reply_invalid, not a guess', async () => {
    const { transport, connection } = connectionOver();
    const pending = connection.request('account/read', { refreshToken: false });
    transport.push({ id: 1, result: { account: null } });
    expectReplyInvalid(await pending.catch((error: unknown) => error));
  });

  it('a wire error stays the client’s typed rejection', async () => {
    const { transport, connection } = connectionOver();
    const pending = connection.request('thread/revert', { threadId: 't', beforeTurnId: 'u' });
    transport.push({ id: 1, error: { code: -32600, message: 'no such turn' } });
    const error = await pending.catch((e: unknown) => e);
    expect(isProviderRejection(error)).toBe(true);
    expect(isReplyInvalid(error)).toBe(false);
  });

  it('honours a per-request timeout over the default deadline', async () => {
    // an injected clock: a file sharing this worker cannot add a timer to what is counted here
    const live = new Map<number, { fn: () => void; ms: number }>();
    let next = 0;
    const clock = {
      setTimeout: (fn: () => void, ms: number) => {
        next += 1;
        live.set(next, { fn, ms });
        return next;
      },
      clearTimeout: (handle: unknown) => {
        live.delete(handle as number);
      },
    };
    const transport = useFakeTransport();
    const connection = new CodexConnection(transport, { requestTimeoutMs: 60_000, clock });
    const outcome = track(connection.request('model/list', {}, { timeoutMs: 50 }));
    expect([...live.values()].map((t) => t.ms)).toEqual([50]);
    await Promise.resolve();
    expect(outcome.state).toBe('pending');
    const [handle, timer] = [...live.entries()][0]!;
    live.delete(handle);
    timer.fn();
    await vi.waitFor(() => {
      expect(outcome.state).toBe('rejected');
    });
    expect((outcome.value as CodexRpcError).providerCode).toBe('request_timeout');
    expect(live.size).toBe(0);
  });

  it('honours an abort signal: request_aborted, nothing pending after', async () => {
    const { transport, connection } = connectionOver();
    const controller = new AbortController();
    const outcome = track(
      connection.request('config/read', { cwd: '/w' }, { signal: controller.signal }),
    );
    controller.abort();
    await vi.waitFor(() => {
      expect(outcome.state).toBe('rejected');
    });
    expect((outcome.value as CodexRpcError).providerCode).toBe('request_aborted');
    expect(transport.sent).toEqual([
      expect.objectContaining({ id: 1, method: 'config/read', params: { cwd: '/w' } }),
    ]);
  });
});
