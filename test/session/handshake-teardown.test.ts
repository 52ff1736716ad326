/**
 * The handshake's thread/start and its teardown: a malformed thread/start, teardowns that fail
 * (kept for release), a failing transport factory, and a ledger overflow heard while it runs.
 */
import { isProviderRejection, type ProviderSession } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import {
  createCodexProvider,
  type CodexProvider,
  type CodexIterableTransport,
} from '../../src/index.js';
import { useFakeTransport } from '../support/fake-transport.js';
import { createProviderHarness, recordingSink, textInput } from '../support/provider-harness.js';
import { SERVER_REQUEST_LEDGER_LIMIT } from '../../src/rpc/server-requests.js';
import {
  CANARY_SECRET,
  count,
  published,
  push,
  reply,
  THREAD,
  turns,
  USER_AGENT,
  waitForRequest,
} from '../support/provider-frames.js';
import { BASELINE, unlistedNeighbours, userAgentOf } from '../support/releases.js';
import { closeFailing, rejectionOf, sessionInit } from '../support/session-handshake.js';

describe('handshake: thread/start and teardown', () => {
  for (const [label, result] of [
    ['no thread', {}],
    ['an empty thread id', { thread: { id: '' } }],
  ] as const) {
    it(`thread/start with ${label} → provider_contract_violation and teardown`, async () => {
      const h = createProviderHarness();
      const opening = rejectionOf(h.openSession());
      await reply(h.transport, 'initialize', {
        userAgent: userAgentOf(BASELINE),
      });
      await reply(h.transport, 'thread/start', result);
      expect(await opening).toMatchObject({ code: 'provider_contract_violation' });
      expect(h.transport.closeCalls).toBe(1);
      expect(h.provider.abandonedConnectionCount).toBe(0);
    });
  }

  it('a failed handshake whose teardown fails → handshake_cleanup_pending, kept for release', async () => {
    const fakes = [useFakeTransport(), useFakeTransport(), useFakeTransport()];
    const wrapped = [
      closeFailing(fakes[0]!, 1),
      closeFailing(fakes[1]!, 2),
      closeFailing(fakes[2]!, 0),
    ];
    let next = 0;
    const provider: CodexProvider = createCodexProvider({ transport: () => wrapped[next++]! });

    const failOne = async (i: number) => {
      const opening = rejectionOf(provider.createSession(sessionInit()));
      await reply(fakes[i]!, 'initialize', {
        userAgent: userAgentOf(unlistedNeighbours()[0] ?? '0.0.0'),
      });
      return opening;
    };
    const first = await failOne(0);
    expect(first).toMatchObject({
      code: 'provider_unavailable',
      providerCode: 'handshake_cleanup_pending',
      details: {
        handshakeCode: 'unsupported_app_server_version',
        teardown: 'EPERM',
        abandonedConnections: 1,
      },
    });
    expect(first.cause).toBeInstanceOf(AggregateError);
    expect((first.cause as AggregateError).errors).toHaveLength(2);
    expect(published(first.message, first.details)).not.toContain(CANARY_SECRET);
    const second = await failOne(1);
    expect(second.details).toMatchObject({ abandonedConnections: 2 });
    // a failed handshake that tears down cleanly retains nothing
    const third = await failOne(2);
    expect(third.providerCode).toBe('unsupported_app_server_version');
    expect(provider.abandonedConnectionCount).toBe(2);

    // attempt-all: the first is released even though the second fails again; shared sweep
    const sweepA = provider.releaseAbandonedConnections();
    const sweepB = provider.releaseAbandonedConnections();
    expect(sweepB).toBe(sweepA);
    const pending = await rejectionOf(sweepA);
    expect(pending).toMatchObject({
      code: 'provider_unavailable',
      providerCode: 'abandoned_connection_pending',
      details: { attempted: 2, released: 1, pending: 1 },
    });
    expect(wrapped[0]!.closeAttempts).toBe(2);
    expect(wrapped[1]!.closeAttempts).toBe(2);
    expect(provider.abandonedConnectionCount).toBe(1);

    expect(await provider.releaseAbandonedConnections()).toEqual({
      attempted: 1,
      released: 1,
      pending: 0,
    });
    expect(provider.abandonedConnectionCount).toBe(0);
    expect(await provider.releaseAbandonedConnections()).toEqual({
      attempted: 0,
      released: 0,
      pending: 0,
    });
  });

  it('release attempts every connection even when a close() throws synchronously', async () => {
    const fakes = [useFakeTransport(), useFakeTransport()];
    let failFirst = 2;
    const transports: CodexIterableTransport[] = [
      {
        incoming: fakes[0]!.incoming,
        send: (m) => fakes[0]!.send(m),
        close: () => {
          if (failFirst > 0) {
            failFirst -= 1;
            throw Object.assign(new Error('sync'), { code: 'EPERM' });
          }
          return fakes[0]!.close();
        },
      },
      closeFailing(fakes[1]!, 1),
    ];
    let next = 0;
    const provider = createCodexProvider({ transport: () => transports[next++]! });
    for (const fake of fakes) {
      const opening = rejectionOf(provider.createSession(sessionInit()));
      await reply(fake, 'initialize', {});
      expect((await opening).providerCode).toBe('handshake_cleanup_pending');
    }
    expect(provider.abandonedConnectionCount).toBe(2);
    const error = await rejectionOf(provider.releaseAbandonedConnections());
    expect(error).toMatchObject({
      providerCode: 'abandoned_connection_pending',
      details: { attempted: 2, released: 1, pending: 1 },
    });
    expect((transports[1] as ReturnType<typeof closeFailing>).closeAttempts).toBe(2);
    expect(await provider.releaseAbandonedConnections()).toEqual({
      attempted: 1,
      released: 1,
      pending: 0,
    });
  });

  it('the userAgent length bound is 512 characters inclusive', async () => {
    const base = `relvo_agent_runtime/${BASELINE} (`;
    for (const [length, ok] of [
      [512, true],
      [513, false],
    ] as const) {
      const h = createProviderHarness();
      const opening = h.openSession().then(
        (s) => s,
        (e: unknown) => e,
      );
      await reply(h.transport, 'initialize', {
        userAgent: `${base}${'x'.repeat(length - base.length - 1)})`,
      });
      if (ok) await reply(h.transport, 'thread/start', { thread: { id: THREAD } });
      const outcome = await opening;
      expect(isProviderRejection(outcome), `length ${length}`).toBe(!ok);
      if (!isProviderRejection(outcome)) await (outcome as ProviderSession).dispose();
    }
  });

  it('a transport factory that throws → provider_unavailable with a cause token only', async () => {
    const provider = createCodexProvider({
      transport: () => {
        throw Object.assign(new Error(`spawn ${CANARY_SECRET} ENOENT`), { code: 'ENOENT' });
      },
    });
    const error = await rejectionOf(provider.createSession(sessionInit()));
    expect(error).toMatchObject({ code: 'provider_unavailable', details: { cause: 'ENOENT' } });
    expect(published(error.message, error.details)).not.toContain(CANARY_SECRET);
  });
});

describe('a ledger overflow during the handshake', () => {
  it('is remembered: the new session is fenced and refuses runs', async () => {
    const h = createProviderHarness();
    const opening = h.openSession();
    await reply(h.transport, 'initialize', { userAgent: USER_AGENT });
    await waitForRequest(h.transport, 'thread/start');
    const frames = Array.from({ length: SERVER_REQUEST_LEDGER_LIMIT + 1 }, (_, i) => ({
      id: i,
      method: 'item/tool/call',
      params: { threadId: THREAD, turnId: 't0', callId: `c${i}`, tool: 'x', arguments: {} },
    }));
    await push(h.transport, ...frames);
    await reply(h.transport, 'thread/start', { thread: { id: THREAD } });
    const session = await opening;
    // bounded: an admitted run would wait for a turn/start reply that never comes
    const refused = await Promise.race([
      session
        .startRun({ input: textInput('x'), sink: recordingSink(), runRef: 'a' })
        .catch((e: unknown) => e),
      turns(50).then(() => new Error('startRun was admitted and is still pending')),
    ]);
    expect(isProviderRejection(refused) && refused.agentError).toMatchObject({
      code: 'illegal_state_transition',
      providerCode: 'session_fenced',
    });
    expect(count(h.transport, 'turn/start')).toBe(0);
    await session.dispose();
  });
});
