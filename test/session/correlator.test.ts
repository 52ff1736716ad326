import {
  isProviderRejection,
  SPI_LIMITS,
  type ProviderRun,
  type ProviderSession,
} from '@relvo-labs/agent-provider';
import { MAX_DELTA_CHUNK } from '../../src/session/translate.js';
import { describe, expect, it } from 'vitest';
import {
  recordingSink,
  textInput,
  texts,
  type ProviderHarness,
} from '../support/provider-harness.js';
import {
  completed,
  count,
  delta,
  push,
  reply,
  startBound,
  THREAD,
  turns,
  usage,
  waitForRequest,
  openedHarness,
} from '../support/provider-frames.js';
import { openedWithRun } from '../support/session-runs.js';

const OTHER_THREAD = '01a228d9-0000-7000-8000-000000000000';

function foreignDiagnostics(h: ProviderHarness): number {
  return h.sessionSink
    .ofType('diagnostic')
    .filter((d) => d.level === 'debug' && /another thread or turn/.test(d.message)).length;
}

function fenceDiagnostics(h: ProviderHarness, reason: string): number {
  return h.sessionSink.ofType('diagnostic').filter((d) => d.detail?.['reason'] === reason).length;
}

async function isPending(p: Promise<unknown>): Promise<boolean> {
  return Promise.race([p.then(() => false), turns(30).then(() => true)]);
}

/** startRun whose turn/start is not answered yet; `bind` answers it and resolves the run. */
async function pendingStart(
  h: ProviderHarness,
  session: ProviderSession,
  nth = 0,
  runRef = `r${nth}`,
) {
  const sink = recordingSink();
  const starting = session.startRun({ input: textInput('x'), sink, runRef });
  await waitForRequest(h.transport, 'turn/start', nth);
  const bind = async (turnId: string) => {
    await reply(h.transport, 'turn/start', { turn: { id: turnId } }, nth);
    return starting;
  };
  return { sink, bind };
}

/** A fresh session with a run whose turn/start is not answered yet. */
async function openedPending() {
  const { h, session } = await openedHarness();
  return { h, session, ...(await pendingStart(h, session)) };
}

/** Turn t1 completes: `run` succeeds. */
async function expectSucceedsOnCompletion(h: ProviderHarness, run: ProviderRun): Promise<void> {
  await push(h.transport, completed('t1', 'completed'));
  expect(await run.completion).toEqual({ outcome: 'succeeded' });
}

/** `n` terminals of background turns nobody started. */
const backgroundTerminals = (n: number) =>
  Array.from({ length: n }, (_, i) => completed(`bg${i}`, 'completed'));

describe('correlation: foreign traffic', () => {
  it('other threads and turns are dropped with one debug diagnostic per session and never settle the run', async () => {
    const { h, session, run, sink } = await openedWithRun();
    await push(
      h.transport,
      delta('t1', 'other thread', OTHER_THREAD),
      completed('t1', 'failed', { message: 'x', codexErrorInfo: 'other' }, OTHER_THREAD),
      delta('bg', 'background turn'),
      completed('bg', 'completed'),
      { method: 'serverRequest/resolved', params: { threadId: OTHER_THREAD, requestId: 3 } },
    );
    expect(await isPending(run.completion)).toBe(true);
    expect(texts(sink)).toBe('');
    expect(foreignDiagnostics(h)).toBe(1);
    // thread-scoped and unknown methods are ignored without a diagnostic
    await push(h.transport, {
      method: 'thread/status/changed',
      params: { threadId: THREAD, status: { type: 'idle' } },
    });
    await push(h.transport, {
      method: 'turn/somethingNew',
      params: { threadId: THREAD, turnId: 't1', x: 1 },
    });
    await push(h.transport, delta('t1', 'mine'), completed('t1', 'completed'));
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(texts(sink)).toBe('mine');
    // with no active run the traffic is foreign too, still without a second diagnostic
    await push(h.transport, completed('t9', 'completed'), delta('t9', 'late'));
    expect(foreignDiagnostics(h)).toBe(1);
    for (const d of h.sessionSink.ofType('diagnostic'))
      expect(JSON.stringify(d)).not.toMatch(/bg|t9|01a228d9/);
    await session.dispose();
  });
});

describe('correlation: the pre-binding buffer', () => {
  it('early frames, an early turn/completed included, are applied in order once the turn id arrives', async () => {
    const { h, session, sink, bind } = await openedPending();
    await push(
      h.transport,
      {
        method: 'turn/started',
        params: { threadId: THREAD, turn: { id: 't1', status: 'inProgress' } },
      },
      delta('t1', 'a'),
      delta('other', 'NOT MINE'),
      delta('t1', 'b'),
      usage(
        't1',
        { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
        { inputTokens: 30, outputTokens: 20, totalTokens: 50 },
      ),
      delta('t1', 'c'),
      completed('t1', 'completed'),
    );
    expect(sink.events).toHaveLength(0);
    const run = await bind('t1');
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(sink.events.map((e) => e.payload.type)).toEqual([
      'run.message_delta',
      'run.message_delta',
      'run.usage',
      'run.message_delta',
    ]);
    expect(texts(sink)).toBe('abc');
    // the other turn's buffered frame was dropped as foreign
    expect(foreignDiagnostics(h)).toBe(1);
    await session.dispose();
  });

  it('SPI_LIMITS.preBindingEmissions output frames are held; one more fails the run, typed, and its turn is interrupted once', async () => {
    const { h, session, sink, bind } = await openedPending();
    const frames = Array.from({ length: SPI_LIMITS.preBindingEmissions + 1 }, (_, i) =>
      delta('t1', `${i},`),
    );
    await push(h.transport, ...frames);
    expect(fenceDiagnostics(h, 'pre_binding_overflow')).toBe(1);
    const run = await bind('t1');
    expect(await run.completion).toMatchObject({
      outcome: 'failed',
      error: { code: 'provider_contract_violation', providerCode: 'pre_binding_overflow' },
    });
    // nothing was published before the failure: no partial answer reads as a whole one
    expect(sink.ofType('run.message_delta')).toHaveLength(0);
    const interrupt = await waitForRequest(h.transport, 'turn/interrupt');
    expect(interrupt.params).toEqual({ threadId: THREAD, turnId: 't1' });
    await session.dispose();
  });

  it('a delta longer than one chunk counts as the emissions it makes', async () => {
    const { h, session, bind } = await openedPending();
    const long = 'y'.repeat(MAX_DELTA_CHUNK + 1);
    const frames = Array.from({ length: SPI_LIMITS.preBindingEmissions - 1 }, () =>
      delta('t1', 'x'),
    );
    await push(h.transport, ...frames, delta('t1', long));
    expect(fenceDiagnostics(h, 'pre_binding_overflow')).toBe(1);
    const run = await bind('t1');
    expect(await run.completion).toMatchObject({
      outcome: 'failed',
      error: { providerCode: 'pre_binding_overflow' },
    });
    await session.dispose();
  });

  it('exactly SPI_LIMITS.preBindingEmissions output frames and no terminal lose nothing and warn nothing', async () => {
    const { h, session, sink, bind } = await openedPending();
    const bound = SPI_LIMITS.preBindingEmissions;
    await push(h.transport, ...Array.from({ length: bound }, () => delta('t1', 'x')));
    const run = await bind('t1');
    expect(texts(sink)).toBe('x'.repeat(bound));
    expect(sink.ofType('diagnostic')).toHaveLength(0);
    await expectSucceedsOnCompletion(h, run);
    await session.dispose();
  });

  it('16 pre-binding terminals are held; the run binds and continues', async () => {
    const { h, session, bind } = await openedPending();
    await push(h.transport, ...backgroundTerminals(16));
    const run = await bind('t1');
    expect(await isPending(run.completion)).toBe(true);
    expect(fenceDiagnostics(h, 'unattributable_terminal_overflow')).toBe(0);
    await expectSucceedsOnCompletion(h, run);
    await session.dispose();
  });

  it('a 17th terminal fences the session, fails the run, and its turn id later draws one turn/interrupt', async () => {
    const { h, session, bind } = await openedPending();
    await push(h.transport, ...backgroundTerminals(17));
    expect(fenceDiagnostics(h, 'unattributable_terminal_overflow')).toBe(1);
    const run = await bind('t1');
    expect(await run.completion).toMatchObject({
      outcome: 'failed',
      error: { code: 'provider_contract_violation', providerCode: 'pre_binding_terminal_overflow' },
    });
    const interrupt = await waitForRequest(h.transport, 'turn/interrupt');
    expect(interrupt.params).toEqual({ threadId: THREAD, turnId: 't1' });
    await push(
      h.transport,
      { id: interrupt.id, result: {} },
      delta('t1', 'tail'),
      completed('t1', 'interrupted'),
    );
    await turns();
    expect(count(h.transport, 'turn/interrupt')).toBe(1);
    const refused: unknown = await session
      .startRun({ input: textInput('x'), sink: recordingSink(), runRef: 'next' })
      .catch((e: unknown) => e);
    expect(isProviderRejection(refused) && refused.agentError).toMatchObject({
      code: 'illegal_state_transition',
      providerCode: 'session_fenced',
    });
    expect(count(h.transport, 'turn/start')).toBe(1);
    await session.dispose();
  });
});

describe('correlation: retired turns', () => {
  it("a finished turn's late delta and turn/completed never reach or settle the next run", async () => {
    const { h, session } = await openedHarness();
    const first = await startBound(h, session, 't1', 'a');
    await push(h.transport, completed('t1', 'completed'));
    expect(await first.run.completion).toEqual({ outcome: 'succeeded' });

    const { sink, bind } = await pendingStart(h, session, 1, 'b');
    // tails of t1 before run b is bound: discarded on arrival, not buffered
    await push(
      h.transport,
      delta('t1', 'late'),
      completed('t1', 'failed', { message: 'm', codexErrorInfo: 'other' }),
    );
    const run = await bind('t2');
    // and after binding
    await push(h.transport, delta('t1', 'later'), completed('t1', 'completed'));
    expect(await isPending(run.completion)).toBe(true);
    expect(texts(sink)).toBe('');
    expect(texts(first.sink)).toBe('');
    await push(h.transport, delta('t2', 'own'), completed('t2', 'completed'));
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(texts(sink)).toBe('own');
    await session.dispose();
  });

  it('remembers the last 64 retired turn ids, first in first out', async () => {
    const { h, session } = await openedHarness();
    for (let i = 0; i <= 64; i += 1) {
      const { run } = await startBound(h, session, `t${i}`, `r${i}`, i);
      await push(h.transport, completed(`t${i}`, 'completed'));
      await run.completion;
    }
    const { bind } = await pendingStart(h, session, 65, 'last');
    // t1 is still retired: 17 of its terminals are discarded before buffering, nothing overflows
    await push(h.transport, ...Array.from({ length: 17 }, () => completed('t1', 'completed')));
    expect(fenceDiagnostics(h, 'unattributable_terminal_overflow')).toBe(0);
    // t0 was evicted (65 retirements): its terminals are buffered again, and the 17th overflows
    await push(h.transport, ...Array.from({ length: 17 }, () => completed('t0', 'completed')));
    expect(fenceDiagnostics(h, 'unattributable_terminal_overflow')).toBe(1);
    await bind('t65');
    await session.dispose();
  });
});
