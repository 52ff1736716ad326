import {
  isProviderRejection,
  type AgentError,
  type ProviderRun,
  type ProviderRunRequest,
  type ProviderSession,
} from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { recordingSink, textInput } from '../support/provider-harness.js';
import {
  completed,
  count,
  push,
  replyError,
  reply,
  startBound,
  THREAD,
  waitForRequest,
  startText,
  openedHarness,
} from '../support/provider-frames.js';

/** Calls startRun, proving it never throws synchronously, and returns the rejection. */
async function refusal(
  session: ProviderSession,
  input: unknown,
  runRef = 'refused',
): Promise<AgentError> {
  let promise: Promise<ProviderRun> | undefined;
  expect(() => {
    promise = session.startRun({
      input: input as ProviderRunRequest['input'],
      sink: recordingSink(),
      runRef,
    });
  }).not.toThrow();
  const error: unknown = await promise!.then(
    () => {
      throw new Error('startRun was admitted');
    },
    (e: unknown) => e,
  );
  expect(isProviderRejection(error)).toBe(true);
  if (!isProviderRejection(error)) throw new Error('unreachable');
  return error.agentError;
}

describe('startRun admission order (docs/behaviour.md §6.1)', () => {
  it('disposed → session_closed, before every other check', async () => {
    const { h, session } = await openedHarness();
    await startBound(h, session, 't1'); // a run is active
    await session.dispose();
    expect(await refusal(session, { parts: [{ type: 'file_ref', path: 'a.txt' }] })).toMatchObject({
      code: 'session_closed',
    });
    expect(count(h.transport, 'turn/start')).toBe(1);
  });

  it('disposal in progress already closes admission', async () => {
    const { h, session } = await openedHarness();
    const disposing = session.dispose();
    expect(await refusal(session, textInput('x'))).toMatchObject({ code: 'session_closed' });
    await disposing;
    expect(count(h.transport, 'turn/start')).toBe(0);
  });

  it('fenced → illegal_state_transition session_fenced, ahead of stream end, active run and parts', async () => {
    const { h, session } = await openedHarness();
    const starting = startText(session, 'a');
    await reply(h.transport, 'turn/start', { turn: {} }); // no usable id → fenced
    await starting;
    h.transport.end();
    await h.transport.drained();
    expect(await refusal(session, { parts: [{ type: 'file_ref', path: 'a.txt' }] })).toMatchObject({
      code: 'illegal_state_transition',
      providerCode: 'session_fenced',
    });
    expect(count(h.transport, 'turn/start')).toBe(1);
    await session.dispose();
  });

  it('stream ended → provider_unavailable, ahead of the part check', async () => {
    const { h, session } = await openedHarness();
    h.transport.end();
    await h.transport.drained();
    expect(await refusal(session, { parts: [{ type: 'file_ref', path: 'a.txt' }] })).toMatchObject({
      code: 'provider_unavailable',
    });
    expect(count(h.transport, 'turn/start')).toBe(0);
    await session.dispose();
  });

  it('a run already active → illegal_state_transition, ahead of the part check', async () => {
    const { h, session } = await openedHarness();
    await startBound(h, session, 't1');
    const error = await refusal(session, { parts: [{ type: 'file_ref', path: 'a.txt' }] }, 'other');
    expect(error).toMatchObject({ code: 'illegal_state_transition' });
    expect(error.providerCode).toBeUndefined();
    expect(count(h.transport, 'turn/start')).toBe(1);
    await session.dispose();
  });

  it('a non-text part → capability_unsupported with details, nothing written', async () => {
    const { h, session } = await openedHarness();
    const error = await refusal(session, {
      parts: [
        { type: 'text', text: 'look at' },
        { type: 'file_ref', path: 'src/a.ts' },
      ],
    });
    expect(error).toMatchObject({
      code: 'capability_unsupported',
      details: { capability: 'turnInput.parts', supported: ['text'], requested: ['file_ref'] },
    });
    expect(JSON.stringify(error)).not.toContain('src/a.ts');
    expect(count(h.transport, 'turn/start')).toBe(0);
    // the refusal left no active run behind
    await startBound(h, session, 't1', 'fresh');
    await session.dispose();
  });
});

describe('turn/start parameters and runRef idempotency', () => {
  it('text parts are joined with a blank line into one input item, exactly', async () => {
    const { h, session } = await openedHarness();
    const parts = ['first', 'second\n', 'third'].map((text) => ({ type: 'text' as const, text }));
    const starting = session.startRun({ input: { parts }, sink: recordingSink(), runRef: 'r' });
    const frame = await waitForRequest(h.transport, 'turn/start');
    expect(frame.params).toEqual({
      threadId: THREAD,
      input: [{ type: 'text', text: 'first\n\nsecond\n\n\nthird' }],
    });
    await reply(h.transport, 'turn/start', { turn: { id: 't1' } });
    await starting;
    await session.dispose();
  });

  it('an exact retry of a settled runRef returns the same run without a second turn/start', async () => {
    const { h, session } = await openedHarness();
    const { run } = await startBound(h, session, 't1', 'same');
    await push(h.transport, completed('t1', 'completed'));
    await run.completion;
    const again = await session.startRun({
      input: textInput('hello'),
      sink: recordingSink(),
      runRef: 'same',
    });
    expect(again).toBe(run);
    expect(count(h.transport, 'turn/start')).toBe(1);
    await session.dispose();
  });

  it('a retry while turn/start is pending shares the outcome (no second turn/start)', async () => {
    const { h, session } = await openedHarness();
    const sink = recordingSink();
    const first = session.startRun({ input: textInput('x'), sink, runRef: 'same' });
    const retry = session.startRun({ input: textInput('x'), sink, runRef: 'same' });
    await reply(h.transport, 'turn/start', { turn: { id: 't1' } });
    expect(await retry).toBe(await first);
    expect(count(h.transport, 'turn/start')).toBe(1);
    await session.dispose();
  });

  it('a retry during a turn/start that is then refused is refused too, never left hanging', async () => {
    const { h, session } = await openedHarness();
    const first = startText(session, 'same');
    const retry = startText(session, 'same');
    const outcomes = Promise.allSettled([first, retry]);
    await replyError(h.transport, 'turn/start', -32602, 'bad');
    const [a, b] = await outcomes;
    expect(a.status).toBe('rejected');
    expect(b.status).toBe('rejected');
    // refused authoritatively: the same runRef may start afresh
    const again = startText(session, 'same');
    await reply(h.transport, 'turn/start', { turn: { id: 't2' } }, 1);
    await again;
    expect(count(h.transport, 'turn/start')).toBe(2);
    await session.dispose();
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
      const { h, session } = await openedHarness();
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
