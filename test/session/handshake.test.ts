import {
  isProviderRejection,
  type AgentError,
  type ProviderSession,
} from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import {
  createCodexProvider,
  CODEX_SUPPORTED_APP_SERVER_VERSIONS,
  type CodexProvider,
  type CodexIterableTransport,
} from '../../src/index.js';
import { CODEX_APP_SERVER_MAX_VERSION, CODEX_APP_SERVER_MIN_VERSION } from '../../src/constants.js';
import { useFakeTransport, type FakeTransport } from '../support/fake-transport.js';
import {
  createProviderHarness,
  recordingSink,
  textInput,
  WORKSPACE,
} from '../support/provider-harness.js';
import { SERVER_REQUEST_LEDGER_LIMIT } from '../../src/rpc/server-requests.js';
import {
  CANARY_SECRET,
  count,
  open,
  published,
  push,
  reply,
  THREAD,
  turns,
  USER_AGENT,
  waitForRequest,
} from '../support/provider-frames.js';
import {
  BASELINE,
  recordedUserAgentOf,
  unlistedNeighbours,
  userAgentOf,
} from '../support/releases.js';

async function rejectionOf(
  promise: Promise<unknown>,
): Promise<AgentError & { cause?: unknown; error: unknown }> {
  const error: unknown = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  if (!isProviderRejection(error)) throw new Error(`not a ProviderRejection: ${String(error)}`);
  return { ...error.agentError, cause: error.cause, error };
}

function sessionInit(root = WORKSPACE, options: Record<string, unknown> = {}) {
  return {
    options: options as never,
    workspace: { root, ownership: 'borrowed' as const },
    sink: recordingSink(),
  };
}

/** A transport whose close() fails `failures` times with EPERM before it succeeds. */
function closeFailing(
  t: FakeTransport,
  failures: number,
): CodexIterableTransport & { closeAttempts: number } {
  let left = failures;
  const wrapped = {
    closeAttempts: 0,
    incoming: t.incoming,
    send: (m: unknown) => t.send(m),
    close: async () => {
      wrapped.closeAttempts += 1;
      if (left > 0) {
        left -= 1;
        throw Object.assign(new Error(`cannot kill ${CANARY_SECRET}`), { code: 'EPERM' });
      }
      await t.close();
    },
  };
  return wrapped;
}

describe('handshake: version gate (docs/behaviour.md §5.2)', () => {
  const accepted = [
    ...CODEX_SUPPORTED_APP_SERVER_VERSIONS.map((v) => userAgentOf(v)),
    recordedUserAgentOf(BASELINE),
  ];
  for (const userAgent of accepted) {
    it(`accepts ${userAgent}`, async () => {
      const h = createProviderHarness();
      const opening = h.openSession();
      await reply(h.transport, 'initialize', { userAgent });
      await reply(h.transport, 'thread/start', { thread: { id: THREAD } });
      const session = await opening;
      expect(count(h.transport, 'initialized')).toBe(1);
      expect(count(h.transport, 'thread/start')).toBe(1);
      await session.dispose();
      expect(h.transport.closeCalls).toBe(1);
    });
  }

  // an initialize result without a string userAgent is not codex app-server at all
  for (const [label, userAgent] of [
    ['absent', undefined],
    ['not a string', 156],
  ] as const) {
    it(`refuses a userAgent that is ${label}: handshake_invalid, connection closed`, async () => {
      const h = createProviderHarness();
      const opening = rejectionOf(h.openSession());
      await reply(h.transport, 'initialize', userAgent === undefined ? {} : { userAgent });
      const error = await opening;
      expect(error).toMatchObject({
        code: 'provider_contract_violation',
        retryable: false,
        providerCode: 'handshake_invalid',
      });
      expect(count(h.transport, 'thread/start')).toBe(0);
      expect(count(h.transport, 'initialized')).toBe(0);
      expect(h.transport.closeCalls).toBe(1);
      expect(h.provider.abandonedConnectionCount).toBe(0);
    });
  }
  /** label, userAgent, the version the refusal may echo (only a version-shaped token). */
  const refused: [string, unknown, string | null][] = [
    ['no " (" suffix', `relvo_agent_runtime/${BASELINE}`, null],
    ['a prerelease', userAgentOf(`${BASELINE}-alpha.1`), `${BASELINE}-alpha.1`],
    ...unlistedNeighbours().map((v): [string, unknown, string] => [
      `unlisted release ${v}`,
      userAgentOf(v),
      v,
    ]),
    ['another client name', `other_client/${BASELINE} (Linux; ${CANARY_SECRET})`, null],
    ['over 512 characters', `relvo_agent_runtime/${BASELINE} (${'x'.repeat(500)})`, null],
    ['a version-shaped token with prose', userAgentOf(`${BASELINE}-${CANARY_SECRET}!`), null],
  ];
  for (const [label, userAgent, foundVersion] of refused) {
    it(`refuses ${label}: not retryable, found version and window in details, before thread/start`, async () => {
      const h = createProviderHarness();
      const opening = rejectionOf(h.openSession());
      await reply(h.transport, 'initialize', userAgent === undefined ? {} : { userAgent });
      const error = await opening;
      expect(error).toMatchObject({
        code: 'provider_rejected',
        retryable: false,
        providerCode: 'unsupported_app_server_version',
      });
      expect(error.details).toEqual({
        foundVersion,
        minSupportedVersion: CODEX_APP_SERVER_MIN_VERSION,
        maxSupportedVersion: CODEX_APP_SERVER_MAX_VERSION,
        install: `npm i -E @openai/codex@${BASELINE}`,
      });
      expect(count(h.transport, 'thread/start')).toBe(0);
      expect(count(h.transport, 'initialized')).toBe(0);
      expect(h.transport.closeCalls).toBe(1);
      expect(h.provider.abandonedConnectionCount).toBe(0);
      if (typeof userAgent === 'string')
        expect(published(error)).not.toContain(userAgent.slice(0, 40));
      expect(published(error)).not.toContain(CANARY_SECRET);
    });
  }

  it('the prefix follows the configured clientName', async () => {
    const h = createProviderHarness({ clientName: 'acme_host' });
    const opening = h.openSession();
    const init = await waitForRequest(h.transport, 'initialize');
    expect(init.params).toMatchObject({
      clientInfo: { name: 'acme_host', title: 'Relvo Agent Runtime' },
      capabilities: null,
    });
    await reply(h.transport, 'initialize', { userAgent: userAgentOf(BASELINE, 'acme_host') });
    await reply(h.transport, 'thread/start', { thread: { id: THREAD } });
    await (await opening).dispose();
  });

  it('a release the host reviewed itself is accepted only through additionalAppServerVersions', async () => {
    const [reviewed = '0.0.0', other = '0.0.1'] = unlistedNeighbours();
    const h = createProviderHarness({ additionalAppServerVersions: [reviewed] });
    const opening = h.openSession();
    await reply(h.transport, 'initialize', { userAgent: userAgentOf(reviewed) });
    await reply(h.transport, 'thread/start', { thread: { id: THREAD } });
    await (await opening).dispose();

    const refusing = createProviderHarness({ additionalAppServerVersions: [reviewed] });
    const refused = rejectionOf(refusing.openSession());
    await reply(refusing.transport, 'initialize', { userAgent: userAgentOf(other) });
    expect(await refused).toMatchObject({
      providerCode: 'unsupported_app_server_version',
      details: { foundVersion: other },
    });
    expect(count(refusing.transport, 'thread/start')).toBe(0);
  });

  it('additionalAppServerVersions takes plain releases only', () => {
    expect(() =>
      createCodexProvider({ additionalAppServerVersions: [`${BASELINE}-alpha.1`] }),
    ).toThrow();
  });
});

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

describe('session options and workspace', () => {
  for (const options of [
    { executable: '/bin/sh' },
    { model: 'gpt', env: {} },
    { sandboxMode: 'yolo' },
    { model: '' },
    { model: 'm'.repeat(201) },
  ]) {
    it(`refuses options ${JSON.stringify(options).slice(0, 40)} with invalid_request before spawning`, async () => {
      let calls = 0;
      const provider = createCodexProvider({
        transport: () => {
          calls += 1;
          throw new Error('must not be called');
        },
      });
      const error = await rejectionOf(provider.createSession(sessionInit(WORKSPACE, options)));
      expect(error.code).toBe('invalid_request');
      expect(calls).toBe(0);
    });
  }

  for (const root of ['relative/dir', './here', '', 'C:']) {
    it(`refuses workspace root ${JSON.stringify(root)} before the transport factory is called`, async () => {
      let calls = 0;
      const provider = createCodexProvider({
        transport: () => {
          calls += 1;
          throw new Error('must not be called');
        },
      });
      const error = await rejectionOf(provider.createSession(sessionInit(root)));
      expect(error.code).toBe('invalid_request');
      expect(published(error.message)).not.toContain(root === '' ? '\u0000' : root);
      expect(calls).toBe(0);
    });
  }

  const precedence: [Record<string, unknown>, Record<string, string>, Record<string, unknown>][] = [
    [{}, {}, { sandbox: 'read-only', approvalPolicy: 'never' }],
    [
      { model: 'p-model', sandboxMode: 'workspace-write' },
      {},
      { model: 'p-model', sandbox: 'workspace-write' },
    ],
    [
      { model: 'p-model', sandboxMode: 'workspace-write' },
      { model: 's-model', sandboxMode: 'danger-full-access' },
      { model: 's-model', sandbox: 'danger-full-access' },
    ],
    [
      { approvals: 'bridge' },
      { sandboxMode: 'workspace-write' },
      { approvalPolicy: 'on-request', sandbox: 'workspace-write' },
    ],
    [{ questions: 'bridge' }, {}, { approvalPolicy: 'never' }],
  ];
  for (const [providerOptions, sessionOptions, expected] of precedence) {
    it(`thread/start for provider ${JSON.stringify(providerOptions)} + session ${JSON.stringify(sessionOptions)}`, async () => {
      const h = createProviderHarness(providerOptions);
      let session: ProviderSession | undefined;
      const opening = open(h, sessionOptions).then((s) => (session = s));
      const frame = await waitForRequest(h.transport, 'thread/start');
      await opening;
      expect(frame.params).toMatchObject({ cwd: WORKSPACE, ephemeral: true, ...expected });
      if (!('model' in expected)) expect(frame.params).not.toHaveProperty('model');
      await session?.dispose();
    });
  }
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
