import {
  isProviderRejection,
  providerRunTerminationSchema,
  type ProviderRunTermination,
} from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import {
  createProviderHarness,
  recordingSink,
  startReplay,
  textInput,
  WORKSPACE,
  texts,
} from '../support/provider-harness.js';
import { restorePlaceholders } from '../../src/testing/index.js';
import { loadTranscript, replayPlaceholders } from '../support/replay.js';
import {
  completed,
  count,
  delta,
  push,
  replyError,
  reply,
  startBound,
  turns,
  waitForRequest,
  openedHarness,
  interruptAcknowledged,
} from '../support/provider-frames.js';

const lines = loadTranscript('interrupt');
const completedLine = lines.find((l) => l.frame.method === 'turn/completed')!;
const recordedDeltas = lines
  .filter((l) => l.frame.method === 'item/agentMessage/delta')
  .map((l) => (l.frame.params as { delta: string }).delta);

/** Resolves with the termination, or 'pending' if the run has not settled after some turns. */
async function peek(
  completion: Promise<ProviderRunTermination>,
): Promise<ProviderRunTermination | 'pending'> {
  return Promise.race([completion, turns(30).then(() => 'pending' as const)]);
}

describe('interrupt: replay of the recorded baseline interrupt transcript', () => {
  it('one turn/interrupt, the ack is not settlement, settles interrupted on turn/completed', async () => {
    const h = createProviderHarness();
    // stop before the recorded turn/completed so the gap between ack and outcome is observable
    const replaying = startReplay(h, 'interrupt', { untilSeq: completedLine.seq });
    const session = await h.openSession();
    const sink = recordingSink();
    const run = await session.startRun({ input: textInput('talk slowly'), sink, runRef: 'r1' });
    for (
      let i = 0;
      i < 2000 && sink.ofType('run.message_delta').length < recordedDeltas.length;
      i += 1
    ) {
      await turns(1);
    }
    expect(texts(sink)).toBe(recordedDeltas.join(''));
    // concurrent callers share one attempt
    const attempts = [run.interrupt('user asked'), run.interrupt(), run.interrupt('x'.repeat(500))];
    await replaying;
    await Promise.all(attempts);
    expect(count(h.transport, 'turn/interrupt')).toBe(1);
    const interruptFrame = h.transport.sent.find((f) => f.method === 'turn/interrupt')!;
    const turnStartReply = lines.find((l) => l.seq === 10)!.frame as {
      result: { turn: { id: string } };
    };
    const threadReply = lines.find((l) => l.seq === 6)!.frame as {
      result: { thread: { id: string } };
    };
    expect(interruptFrame.params).toEqual({
      threadId: threadReply.result.thread.id,
      turnId: turnStartReply.result.turn.id,
    });
    // acknowledged, but not settled
    expect(await peek(run.completion)).toBe('pending');
    // a repeated call after the ack writes nothing new
    await run.interrupt();
    expect(count(h.transport, 'turn/interrupt')).toBe(1);

    await push(
      h.transport,
      restorePlaceholders(completedLine.frame, replayPlaceholders(WORKSPACE)),
    );
    const termination = await run.completion;
    expect(providerRunTerminationSchema.parse(termination)).toEqual({
      outcome: 'interrupted',
      reason: 'user asked',
    });
    // output produced before the stop is still there, and nothing after it
    expect(texts(sink)).toBe('d0 d1 d2 d3 d4 ');
    // after termination: a no-op that writes nothing
    await run.interrupt();
    expect(count(h.transport, 'turn/interrupt')).toBe(1);
    // the session stays usable
    const next = session.startRun({
      input: textInput('again'),
      sink: recordingSink(),
      runRef: 'r2',
    });
    await waitForRequest(h.transport, 'turn/start', 1);
    await reply(h.transport, 'turn/start', { turn: { id: 'turn-next' } }, 1);
    await next;
    await session.dispose();
  });
});

describe('interrupt: hand-built frames', () => {
  it('reason is truncated to 300 characters', async () => {
    const { h, session } = await openedHarness();
    const { run } = await startBound(h, session, 't1');
    await interruptAcknowledged(h, run, { reason: 'y'.repeat(1000) });
    await push(h.transport, completed('t1', 'interrupted'));
    const termination = await run.completion;
    expect(termination).toEqual({ outcome: 'interrupted', reason: 'y'.repeat(300) });
    await session.dispose();
  });

  it('output that arrives between the acknowledgement and turn/completed is still emitted', async () => {
    const { h, session } = await openedHarness();
    const { run, sink } = await startBound(h, session, 't1');
    await push(h.transport, delta('t1', 'before '));
    await interruptAcknowledged(h, run, { reason: 'stop' });
    await push(
      h.transport,
      delta('t1', 'queued'),
      completed('t1', 'interrupted'),
      delta('t1', ' after'),
    );
    expect(await run.completion).toEqual({ outcome: 'interrupted', reason: 'stop' });
    expect(texts(sink)).toBe('before queued');
    await session.dispose();
  });

  it('server status wins: turn/completed "completed" after an interrupt is succeeded', async () => {
    const { h, session } = await openedHarness();
    const { run, sink } = await startBound(h, session, 't1');
    await push(h.transport, delta('t1', 'all done'));
    await interruptAcknowledged(h, run);
    await push(h.transport, completed('t1', 'completed'));
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(texts(sink)).toBe('all done');
    await session.dispose();
  });

  it('a refused interrupt rejects with a ProviderRejection; the next call sends a fresh request', async () => {
    const { h, session } = await openedHarness();
    const { run } = await startBound(h, session, 't1');
    const first = run.interrupt().catch((e: unknown) => e);
    const concurrent = run.interrupt().catch((e: unknown) => e);
    await replyError(h.transport, 'turn/interrupt', -32600, 'no active turn /srv/private/path');
    const error: unknown = await first;
    expect(isProviderRejection(error)).toBe(true);
    expect(await concurrent).toBe(error);
    if (!isProviderRejection(error)) throw new Error('unreachable');
    expect(error.agentError).toMatchObject({
      code: 'provider_rejected',
      providerCode: 'invalid_request',
    });
    expect(error.agentError.message).not.toContain('/srv/private/path');
    expect(count(h.transport, 'turn/interrupt')).toBe(1);
    expect(await peek(run.completion)).toBe('pending');

    await interruptAcknowledged(h, run, { nth: 1 });
    expect(count(h.transport, 'turn/interrupt')).toBe(2);
    await push(h.transport, completed('t1', 'interrupted'));
    expect((await run.completion).outcome).toBe('interrupted');
    await session.dispose();
  });

  it('an interrupt whose reply is lost to EOF rejects as uncertain, and the run fails provider_unavailable, not interrupted', async () => {
    const { h, session } = await openedHarness();
    const { run } = await startBound(h, session, 't1');
    const interrupting = run.interrupt();
    await waitForRequest(h.transport, 'turn/interrupt');
    h.transport.end();
    const error: unknown = await interrupting.catch((e: unknown) => e);
    // the interrupt may have been applied: not a ProviderRejection (docs/spi.md §15)
    expect(isProviderRejection(error)).toBe(false);
    expect((error as { error?: unknown }).error).toMatchObject({
      code: 'provider_unavailable',
      providerCode: 'connection_lost',
    });
    const termination = await run.completion;
    expect(termination).toMatchObject({
      outcome: 'failed',
      error: { code: 'provider_unavailable', retryable: true },
    });
    await session.dispose();
  });

  it('a late turn/completed after settlement is ignored (settles exactly once)', async () => {
    const { h, session } = await openedHarness();
    const { run } = await startBound(h, session, 't1');
    await push(h.transport, completed('t1', 'interrupted'), completed('t1', 'completed'));
    expect(await run.completion).toEqual({ outcome: 'interrupted' });
    await run.interrupt();
    expect(count(h.transport, 'turn/interrupt')).toBe(0);
    await session.dispose();
  });
});
