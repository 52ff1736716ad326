import { isProviderRejection, providerRunTerminationSchema } from '@relvo-labs/agent-provider';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createProviderHarness,
  recordingSink,
  textInput,
  type ProviderHarness,
  texts,
} from '../support/provider-harness.js';
import {
  CANARY_PATH,
  completed,
  count,
  delta,
  open,
  published,
  push,
  replyError,
  reply,
  startBound,
  waitForRequest,
  startText,
  disposeWithTurnStartPending,
  openedHarness,
  interruptAcknowledged,
} from '../support/provider-frames.js';
import { BASELINE, userAgentOf } from '../support/releases.js';

afterEach(() => {
  vi.useRealTimers();
});

function fenced(h: ProviderHarness, reason: string): number {
  return h.sessionSink.ofType('diagnostic').filter((d) => d.detail?.['reason'] === reason).length;
}

async function refusedNext(
  h: ProviderHarness,
  session: Awaited<ReturnType<typeof open>>,
): Promise<unknown> {
  return session
    .startRun({ input: textInput('next'), sink: recordingSink(), runRef: 'next' })
    .catch((e: unknown) => e);
}

describe('turn/start failures', () => {
  it('an error reply rejects the run authoritatively; the session stays usable', async () => {
    const { h, session } = await openedHarness();
    const starting = session
      .startRun({ input: textInput('x'), sink: recordingSink(), runRef: 'a' })
      .catch((e: unknown) => e);
    await replyError(h.transport, 'turn/start', -32001, `overloaded at ${CANARY_PATH}`);
    const error = await starting;
    expect(isProviderRejection(error)).toBe(true);
    if (!isProviderRejection(error)) throw new Error('unreachable');
    expect(error.agentError).toMatchObject({
      code: 'provider_unavailable',
      providerCode: 'overloaded',
      retryable: true,
    });
    expect(published(error.agentError)).not.toContain(CANARY_PATH);
    expect(fenced(h, 'turn_start_unacknowledged')).toBe(0);
    const { run } = await startBound(h, session, 't2', 'b', 1);
    await push(h.transport, completed('t2', 'completed'));
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    await session.dispose();
  });

  it('a turn/start deadline fences the session (turn_start_unacknowledged) and fails the run', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { h, session } = await openedHarness({ requestTimeoutMs: 1000 });
    const starting = startText(session, 'a');
    await waitForRequest(h.transport, 'turn/start');
    vi.advanceTimersByTime(999);
    vi.advanceTimersByTime(1);
    const run = await starting;
    const termination = await run.completion;
    expect(providerRunTerminationSchema.parse(termination)).toMatchObject({
      outcome: 'failed',
      error: { code: 'provider_unavailable', providerCode: 'request_timeout' },
    });
    expect(fenced(h, 'turn_start_unacknowledged')).toBe(1);
    // the late reply steers nothing: it names no pending request
    await reply(h.transport, 'turn/start', { turn: { id: 't1' } });
    await push(h.transport, delta('t1', 'late'), completed('t1', 'completed'));
    expect(await run.completion).toEqual(termination);
    const refused = await refusedNext(h, session);
    expect(isProviderRejection(refused) && refused.agentError).toMatchObject({
      code: 'illegal_state_transition',
      providerCode: 'session_fenced',
    });
    expect(count(h.transport, 'turn/start')).toBe(1);
    // disposal stays available
    await session.dispose();
    expect(h.transport.closeCalls).toBe(1);
  });

  for (const [label, result] of [
    ['no turn', {}],
    ['an empty turn id', { turn: { id: '' } }],
    ['a numeric turn id', { turn: { id: 7 } }],
  ] as const) {
    it(`a reply with ${label} is a contract violation and fences turn_start_unusable_id`, async () => {
      const { h, session } = await openedHarness();
      const starting = startText(session, 'a');
      await reply(h.transport, 'turn/start', result);
      const run = await starting;
      expect(await run.completion).toMatchObject({
        outcome: 'failed',
        error: { code: 'provider_contract_violation' },
      });
      expect(fenced(h, 'turn_start_unusable_id')).toBe(1);
      const refused = await refusedNext(h, session);
      expect(isProviderRejection(refused) && refused.agentError).toMatchObject({
        providerCode: 'session_fenced',
      });
      await session.dispose();
    });
  }
});

describe('connection end mid-run', () => {
  it('EOF mid-run fails the run provider_unavailable (never success), keeping streamed output', async () => {
    const { h, session } = await openedHarness();
    const { run, sink } = await startBound(h, session, 't1');
    await push(h.transport, delta('t1', 'partial'));
    h.transport.end();
    const termination = await run.completion;
    expect(termination).toMatchObject({
      outcome: 'failed',
      error: { code: 'provider_unavailable', retryable: true },
    });
    if (termination.outcome !== 'failed') throw new Error('unreachable');
    expect(termination.error.message).toMatch(/\(eof\)/);
    expect(texts(sink)).toBe('partial');
    const ended = h.sessionSink
      .ofType('diagnostic')
      .filter((d) => /connection ended/.test(d.message));
    expect(ended).toHaveLength(1);
    await session.dispose();
  });

  it('EOF after an acknowledged interrupt still fails the run (no inferred interruption)', async () => {
    const { h, session } = await openedHarness();
    const { run } = await startBound(h, session, 't1');
    await interruptAcknowledged(h, run, { reason: 'stop' });
    h.transport.end();
    expect(await run.completion).toMatchObject({
      outcome: 'failed',
      error: { code: 'provider_unavailable' },
    });
    await session.dispose();
  });

  it('a transport failure mid-run fails the run with only the cause token', async () => {
    const { h, session } = await openedHarness();
    const { run } = await startBound(h, session, 't1');
    h.transport.fail(Object.assign(new Error(`write EPIPE ${CANARY_PATH}`), { code: 'EPIPE' }));
    const termination = await run.completion;
    expect(termination).toMatchObject({
      outcome: 'failed',
      error: { code: 'provider_unavailable', retryable: true },
    });
    if (termination.outcome !== 'failed') throw new Error('unreachable');
    expect(termination.error.message).toMatch(/EPIPE/);
    expect(published(termination, h.sessionSink.events)).not.toContain(CANARY_PATH);
    const failed = h.sessionSink
      .ofType('diagnostic')
      .filter((d) => /connection failed \(EPIPE\)/.test(d.message));
    expect(failed).toHaveLength(1);
    await session.dispose();
  });

  it('EOF with turn/start still pending settles startRun and the run (lost reply)', async () => {
    const { h, session } = await openedHarness();
    const starting = startText(session, 'a');
    await waitForRequest(h.transport, 'turn/start');
    h.transport.end();
    const outcome = await starting.then(
      async (run) => run.completion,
      (e: unknown) => (isProviderRejection(e) ? e.agentError : e),
    );
    expect(JSON.stringify(outcome)).toMatch(/provider_unavailable/);
    expect(JSON.stringify(outcome)).not.toMatch(/succeeded|interrupted/);
    // the turn's fate is unknown (stdout EOF does not stop the process): fenced until disposed
    expect(fenced(h, 'turn_start_unacknowledged')).toBe(1);
    const refused = await refusedNext(h, session);
    expect(isProviderRejection(refused) && refused.agentError).toMatchObject({
      providerCode: 'session_fenced',
    });
    expect(count(h.transport, 'turn/start')).toBe(1);
    await session.dispose();
  });

  it('disposal with turn/start still pending settles the run interrupted without a fence', async () => {
    const { h, session } = await openedHarness();
    expect(await disposeWithTurnStartPending(h, session)).toEqual({
      outcome: 'interrupted',
      reason: 'codex provider session disposed',
    });
    await h.transport.drained();
    // the thread's settings are reported at open; nothing else, and no fence
    const diagnostics = h.sessionSink.ofType('diagnostic');
    expect(diagnostics.map((d) => d.detail?.['kind'])).toEqual(['thread_settings']);
  });

  it('a run ended by EOF frees the session only to be refused: the stream is gone', async () => {
    const { h, session } = await openedHarness();
    const { run } = await startBound(h, session, 't1');
    h.transport.end();
    await run.completion;
    const refused = await refusedNext(h, session);
    expect(isProviderRejection(refused) && refused.agentError.code).toBe('provider_unavailable');
    await session.dispose();
  });
});

describe('request deadlines', () => {
  for (const requestTimeoutMs of [Infinity, Number.NaN, 0, -5]) {
    it(`requestTimeoutMs ${String(requestTimeoutMs)} is refused: no deadline is switched off by accident`, () => {
      expect(() => createProviderHarness({ requestTimeoutMs })).toThrow(
        /invalid codex provider options/,
      );
    });
  }

  {
    const requestTimeoutMs = 2_147_483_647;
    it('the longest requestTimeoutMs (about 24.8 days) does not fire early', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const { h, session } = await openedHarness({ requestTimeoutMs });
      const starting = startText(session, 'a');
      await waitForRequest(h.transport, 'turn/start');
      vi.advanceTimersByTime(10 * 24 * 3600 * 1000);
      await reply(h.transport, 'turn/start', { turn: { id: 't1' } });
      const run = await starting;
      expect(fenced(h, 'turn_start_unacknowledged')).toBe(0);
      await push(h.transport, completed('t1', 'completed'));
      expect(await run.completion).toEqual({ outcome: 'succeeded' });
      await session.dispose();
    });
  }

  it('a non-numeric requestTimeoutMs is refused at construction', () => {
    expect(() => createProviderHarness({ requestTimeoutMs: '5' as never })).toThrow();
  });

  it('an unanswered initialize times out, the handshake fails and its connection is closed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const h = createProviderHarness({ requestTimeoutMs: 500 });
    const opening = h.openSession().catch((e: unknown) => e);
    await waitForRequest(h.transport, 'initialize');
    vi.advanceTimersByTime(500);
    const error = await opening;
    expect(isProviderRejection(error) && error.agentError).toMatchObject({
      code: 'provider_unavailable',
      providerCode: 'initialize_timeout',
      details: { timeoutMs: 500 },
    });
    expect(h.transport.closeCalls).toBe(1);
    expect(count(h.transport, 'thread/start')).toBe(0);
  });
});

describe('a connection that ends right after the handshake', () => {
  it('is remembered: the new session refuses runs and reports the end', async () => {
    const h = createProviderHarness();
    const opening = h.openSession();
    await reply(h.transport, 'initialize', {
      userAgent: userAgentOf(BASELINE),
    });
    const threadStart = await waitForRequest(h.transport, 'thread/start');
    h.transport.push({ id: threadStart.id, result: { thread: { id: 'thr' } } });
    h.transport.end();
    const session = await opening;
    await h.transport.drained();
    const refused = await refusedNext(h, session);
    expect(isProviderRejection(refused) && refused.agentError.code).toBe('provider_unavailable');
    expect(
      h.sessionSink.ofType('diagnostic').filter((d) => /connection ended/.test(d.message)),
    ).toHaveLength(1);
    await session.dispose();
  });
});
