/**
 * Regression tests for defects found in review: each pins one requirement the adapter missed.
 */
import {
  isProviderRejection,
  type ProviderRun,
  type ProviderRunRequest,
} from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { createCodexProvider, type CodexTransport } from '../../src/index.js';
import { SERVER_REQUEST_LEDGER_LIMIT } from '../../src/rpc/server-requests.js';
import { useFakeTransport } from '../support/fake-transport.js';
import { createHarness, recordingSink, textInput, WORKSPACE } from '../support/provider-harness.js';
import { count, open, push, reply, THREAD, turns, USER_AGENT, waitForRequest } from './helpers.js';

/**
 * Like the stdio transport: close() stops the child, so stdout ends (and the client sees EOF)
 * before close() resolves. The plain fake resolves close() before its EOF is consumed.
 */
function eofBeforeCloseHarness() {
  const transport = useFakeTransport();
  let closing: Promise<void> | undefined;
  const wrapped: CodexTransport = {
    incoming: transport.incoming,
    send: (m) => {
      transport.send(m);
    },
    close: () => {
      closing ??= (async () => {
        transport.end();
        await transport.drained();
        await transport.close();
      })();
      return closing;
    },
  };
  const provider = createCodexProvider({ transport: () => wrapped });
  const sessionSink = recordingSink();
  return {
    transport,
    provider,
    sessionSink,
    openSession: () =>
      provider.createSession({
        options: {},
        workspace: { root: WORKSPACE, ownership: 'borrowed' },
        sink: sessionSink,
      }),
  };
}

describe('disposal with turn/start pending, when EOF precedes the end of close()', () => {
  it('the run ends interrupted with the disposal reason, never failed, and nothing is fenced', async () => {
    const h = eofBeforeCloseHarness();
    const session = await open(h);
    const starting = session.startRun({
      input: textInput('x'),
      sink: recordingSink(),
      runRef: 'a',
    });
    await waitForRequest(h.transport, 'turn/start');
    await session.dispose();
    const run = await starting;
    expect(await run.completion).toEqual({
      outcome: 'interrupted',
      reason: 'codex provider session disposed',
    });
    expect(h.sessionSink.ofType('diagnostic').filter((d) => /fenced/.test(d.message))).toEqual([]);
  });
});

describe('startRun never throws synchronously', () => {
  const malformed: [string, unknown][] = [
    ['no input', { sink: recordingSink(), runRef: 'm' }],
    ['parts not an array', { input: { parts: 'text' }, sink: recordingSink(), runRef: 'm' }],
    ['a null part', { input: { parts: [null] }, sink: recordingSink(), runRef: 'm' }],
    ['no request at all', undefined],
  ];
  for (const [label, request] of malformed) {
    it(`${label}: a rejected ProviderRejection (invalid_request), nothing written`, async () => {
      const h = createHarness();
      const session = await open(h);
      let promise: Promise<ProviderRun> | undefined;
      expect(() => {
        promise = session.startRun(request as ProviderRunRequest);
      }).not.toThrow();
      const error: unknown = await promise!.then(
        () => new Error('admitted'),
        (e: unknown) => e,
      );
      expect(isProviderRejection(error) && error.agentError.code).toBe('invalid_request');
      expect(count(h.transport, 'turn/start')).toBe(0);
      // nothing was left behind: a well-formed run is still admitted
      const next = session.startRun({ input: textInput('ok'), sink: recordingSink(), runRef: 'n' });
      await reply(h.transport, 'turn/start', { turn: { id: 't1' } });
      await next;
      await session.dispose();
    });
  }
});

describe('a ledger overflow during the handshake', () => {
  it('is remembered: the new session is fenced and refuses runs', async () => {
    const h = createHarness();
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
