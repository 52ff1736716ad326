/**
 * The interaction bridges through the whole adapter, on the fake transport: recorded approval
 * transcripts replayed end to end, and hand-built blocking questions (the stable surface only
 * sends non-blocking ones, so the blocking shape comes from the pinned schema).
 */
import {
  isProviderRejection,
  providerEventInputSchema,
  type QuestionSetResponse,
} from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import {
  createProviderHarness,
  recordingSink,
  startReplay,
  textInput,
} from '../support/provider-harness.js';
import { colorQuestion } from '../support/interaction-frames.js';
import { loadTranscript } from '../support/replay.js';
import {
  completed,
  push,
  startBound,
  userInputRequest,
  THREAD,
  turns,
  openedHarness,
} from '../support/provider-frames.js';

function recordedReply(scenario: string): Record<string, unknown> {
  const line = loadTranscript(scenario).find(
    (l) => l.dir === 'c2s' && !Object.hasOwn(l.frame, 'method') && Object.hasOwn(l.frame, 'id'),
  );
  if (line === undefined) throw new Error(`${scenario}: no recorded reply to a server request`);
  return line.frame;
}

function sentReplyTo(sent: readonly Record<string, unknown>[], id: number | string) {
  return sent.filter((f) => f.id === id && !Object.hasOwn(f, 'method'));
}

async function until(check: () => boolean, label: string, maxTurns = 2000): Promise<void> {
  for (let i = 0; i < maxTurns; i += 1) {
    if (check()) return;
    await new Promise<void>((r) => setImmediate(r));
  }
  throw new Error(`never happened: ${label}`);
}

describe('command approvals replayed from the real binary', () => {
  for (const [scenario, response, outcome] of [
    ['approval_accept', { kind: 'approval', decision: 'approved', mode: 'once' }, 'succeeded'],
    ['approval_decline', { kind: 'approval', decision: 'denied' }, 'succeeded'],
    // the recorded server answered the user's `cancel` by interrupting; the adapter never sends
    // cancel (it declines), and the server's status still decides the outcome
    ['approval_cancel', { kind: 'approval', decision: 'denied' }, 'interrupted'],
  ] as const) {
    it(`${scenario}: one neutral approval, one native reply, the turn settles from its own status`, async () => {
      const h = createProviderHarness({ approvals: 'bridge' });
      const replaying = startReplay(h, scenario);
      const session = await h.openSession();
      const sink = recordingSink();
      const run = await session.startRun({ input: textInput('run it'), sink, runRef: 'r' });
      await until(() => sink.ofType('interaction.requested').length === 1, 'interaction.requested');
      const [requested] = sink.ofType('interaction.requested');
      expect(requested!.providerRef).toMatch(/^approval-[0-9a-f-]{36}-\d+$/);
      expect(requested!.request).toMatchObject({
        kind: 'approval',
        subject: { category: 'command', detail: { command: expect.stringContaining('echo') } },
        riskHint: 'high',
      });
      // the recorded frame carries the experimental fields the stable schema omits
      const native = loadTranscript(scenario).find(
        (l) => l.frame.method === 'item/commandExecution/requestApproval',
      )!;
      expect(native.frame.params).toMatchObject({
        environmentId: 'local',
        availableDecisions: expect.any(Array),
      });

      await session.respondToInteraction(requested!.providerRef, response);
      // redelivery of the identical answer is a no-op
      await session.respondToInteraction(requested!.providerRef, response);
      const termination = await run.completion;
      await replaying;
      expect(termination.outcome).toBe(outcome);
      const replies = sentReplyTo(h.transport.sent, 0);
      expect(replies).toHaveLength(1);
      if (scenario !== 'approval_cancel') expect(replies[0]).toEqual(recordedReply(scenario));
      else expect(replies[0]).toEqual({ id: 0, result: { decision: 'decline' } });
      for (const e of sink.events) expect(providerEventInputSchema.safeParse(e).success).toBe(true);
      // after the run ended: the exact retry is still a no-op (docs/spi.md §6), a different answer
      // conflicts, and neither revives the run nor writes anything
      await session.respondToInteraction(requested!.providerRef, response);
      const other =
        response.decision === 'denied'
          ? ({ kind: 'approval', decision: 'approved', mode: 'once' } as const)
          : ({ kind: 'approval', decision: 'denied' } as const);
      const late = await session
        .respondToInteraction(requested!.providerRef, other)
        .catch((e: unknown) => e);
      expect(isProviderRejection(late) && late.agentError.code).toBe('interaction_already_settled');
      expect(sentReplyTo(h.transport.sent, 0)).toHaveLength(1);
      await session.dispose();
    });
  }

  it('approvals off: the recorded approval is declined -32601 on its own id and raises nothing', async () => {
    const h = createProviderHarness({ questions: 'bridge' });
    const lines = loadTranscript('approval_decline');
    const replaying = startReplay(h, 'approval_decline', {
      // our decline is an error reply, not the recorded result: stop matching at that checkpoint
      untilSeq: lines.find(
        (l) => l.dir === 'c2s' && l.frame.id === 0 && !Object.hasOwn(l.frame, 'method'),
      )!.seq,
    });
    const session = await h.openSession();
    const sink = recordingSink();
    await session.startRun({ input: textInput('run it'), sink, runRef: 'r' });
    await replaying;
    await until(() => sentReplyTo(h.transport.sent, 0).length === 1, 'the decline');
    expect(sentReplyTo(h.transport.sent, 0)[0]).toMatchObject({ id: 0, error: { code: -32601 } });
    expect(sink.ofType('interaction.requested')).toHaveLength(0);
    await session.dispose();
  });
});

describe('request_user_input replayed from the real binary', () => {
  it('the stable surface sends isBlocking:false: refused -32602 not_blocking, the turn completes', async () => {
    const h = createProviderHarness({ questions: 'bridge' });
    const replaying = startReplay(h, 'request_user_input');
    const session = await h.openSession();
    const sink = recordingSink();
    const run = await session.startRun({ input: textInput('ask'), sink, runRef: 'q' });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    await replaying;
    const recorded = recordedReply('request_user_input') as { error: { code: number } };
    expect(sentReplyTo(h.transport.sent, 0)).toEqual([
      {
        id: 0,
        error: { code: recorded.error.code, message: expect.stringContaining('not_blocking') },
      },
    ]);
    expect(sink.ofType('interaction.requested')).toHaveLength(0);
    const warnings = h.sessionSink.ofType('diagnostic').filter((d) => d.level === 'warning');
    expect(warnings.some((d) => d.message.includes('not_blocking'))).toBe(true);
    await session.dispose();
  });
});

const question = userInputRequest;

const COLOR = colorQuestion({
  options: [
    { label: 'Red', description: 'Loud.' },
    { label: 'Blue', description: '' },
  ],
});

describe('blocking questions (hand-built from the pinned schema)', () => {
  it('one request → one question_set; the answer map is keyed by native ids, labels verbatim', async () => {
    const { h, session } = await openedHarness({ questions: 'bridge' });
    const { run, sink } = await startBound(h, session, 't1');
    const proto = {
      id: '__proto__',
      header: '',
      question: 'Secret word?',
      isOther: false,
      isSecret: true,
      options: null,
    };
    await push(h.transport, question(7, 't1', [COLOR, proto]));
    const [requested] = sink.ofType('interaction.requested');
    expect(requested!.request).toEqual({
      kind: 'question_set',
      questions: [
        {
          key: 'q1',
          prompt: 'Which color?',
          header: 'Color',
          choices: [
            { value: 'o1', label: 'Red', description: 'Loud.' },
            { value: 'o2', label: 'Blue' },
          ],
          multiSelect: false,
          allowFreeText: true,
          sensitive: false,
        },
        {
          key: 'q2',
          prompt: 'Secret word?',
          multiSelect: false,
          allowFreeText: true,
          sensitive: true,
        },
      ],
    });
    // an incomplete batch is refused and leaves the interaction answerable
    const partial = await session
      .respondToInteraction(requested!.providerRef, {
        kind: 'question_set',
        answers: { q1: { type: 'selection', values: ['o2'] } },
      })
      .catch((e: unknown) => e);
    expect(isProviderRejection(partial) && partial.agentError.code).toBe('invalid_request');
    expect(sentReplyTo(h.transport.sent, 7)).toHaveLength(0);

    const answers: QuestionSetResponse['answers'] = {
      q1: { type: 'selection', values: ['o2'] },
      q2: { type: 'text', text: 'swordfish' },
    };
    // the same answer delivered twice concurrently settles once
    await Promise.all([
      session.respondToInteraction(requested!.providerRef, { kind: 'question_set', answers }),
      session.respondToInteraction(requested!.providerRef, {
        kind: 'question_set',
        answers: { q2: answers['q2']!, q1: answers['q1']! },
      }),
    ]);
    const replies = sentReplyTo(h.transport.sent, 7);
    expect(replies).toHaveLength(1);
    const result = (replies[0] as { result: { answers: Record<string, { answers: string[] }> } })
      .result;
    expect(Object.getOwnPropertyNames(result.answers).sort()).toEqual([
      '__proto__',
      'color_choice',
    ]);
    expect(result.answers.color_choice).toEqual({ answers: ['Blue'] });
    expect(Object.getOwnPropertyDescriptor(result.answers, '__proto__')?.value).toEqual({
      answers: ['swordfish'],
    });
    // a conflicting second answer is refused, nothing else is written
    const conflicting = await session
      .respondToInteraction(requested!.providerRef, {
        kind: 'question_set',
        answers: { ...answers, q1: { type: 'selection', values: ['o1'] } },
      })
      .catch((e: unknown) => e);
    expect(isProviderRejection(conflicting) && conflicting.agentError.code).toBe(
      'interaction_already_settled',
    );
    // no answer text in any diagnostic
    expect(JSON.stringify(h.sessionSink.events)).not.toContain('swordfish');
    await push(h.transport, completed('t1', 'completed'));
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    await session.dispose();
  });

  it('serverRequest/resolved before an answer withdraws it; after an answer it only confirms', async () => {
    const { h, session } = await openedHarness({ questions: 'bridge' });
    const { run, sink } = await startBound(h, session, 't1');
    await push(h.transport, question(0, 't1', [COLOR]), question(1, 't1', [COLOR]));
    const [first, second] = sink.ofType('interaction.requested');
    await session.respondToInteraction(second!.providerRef, {
      kind: 'question_set',
      answers: { q1: { type: 'text', text: 'green' } },
    });
    await push(
      h.transport,
      { method: 'serverRequest/resolved', params: { threadId: THREAD, requestId: 0 } },
      { method: 'serverRequest/resolved', params: { threadId: THREAD, requestId: 1 } },
      { method: 'serverRequest/resolved', params: { threadId: THREAD, requestId: 0 } },
    );
    expect(sink.ofType('interaction.withdrawn')).toEqual([
      { type: 'interaction.withdrawn', providerRef: first!.providerRef },
    ]);
    // nothing was written on the withdrawn id, and a later answer is refused
    expect(sentReplyTo(h.transport.sent, 0)).toHaveLength(0);
    const late = await session
      .respondToInteraction(first!.providerRef, {
        kind: 'question_set',
        answers: { q1: { type: 'text', text: 'x' } },
      })
      .catch((e: unknown) => e);
    expect(isProviderRejection(late) && late.agentError.code).toBe('unknown_interaction');
    // the answered one is still a no-op on identical redelivery
    await session.respondToInteraction(second!.providerRef, {
      kind: 'question_set',
      answers: { q1: { type: 'text', text: 'green' } },
    });
    expect(sentReplyTo(h.transport.sent, 1)).toHaveLength(1);
    await push(h.transport, completed('t1', 'completed'));
    expect((await run.completion).outcome).toBe('succeeded');
    await session.dispose();
  });

  for (const cause of ['completion', 'interrupt', 'dispose', 'eof'] as const) {
    it(`retirement on ${cause}: an unanswered batch gets an empty answer map, a late answer is unknown`, async () => {
      const { h, session } = await openedHarness({ questions: 'bridge', approvals: 'bridge' });
      const { run, sink } = await startBound(h, session, 't1');
      await push(h.transport, question(3, 't1', [COLOR]));
      const [requested] = sink.ofType('interaction.requested');
      if (cause === 'completion') await push(h.transport, completed('t1', 'completed'));
      if (cause === 'interrupt') void run.interrupt().catch(() => undefined);
      if (cause === 'dispose') await session.dispose();
      if (cause === 'eof') {
        h.transport.end();
        await turns();
      }
      await until(
        () => sentReplyTo(h.transport.sent, 3).length > 0 || cause === 'eof',
        'the retirement reply',
      );
      if (cause !== 'eof')
        expect(sentReplyTo(h.transport.sent, 3)).toEqual([{ id: 3, result: { answers: {} } }]);
      const late = await session
        .respondToInteraction(requested!.providerRef, {
          kind: 'question_set',
          answers: { q1: { type: 'text', text: 'x' } },
        })
        .catch((e: unknown) => e);
      expect(isProviderRejection(late) && late.agentError.code).toBe('unknown_interaction');
      await session.dispose();
    });
  }

  it('enabling questions never enables approvals (and vice versa)', async () => {
    for (const [options, method] of [
      [{ questions: 'bridge' }, 'item/commandExecution/requestApproval'],
      [{ approvals: 'bridge' }, 'item/tool/requestUserInput'],
    ] as const) {
      const { h, session } = await openedHarness(options);
      const { sink } = await startBound(h, session, 't1');
      const params =
        method === 'item/tool/requestUserInput'
          ? question(9, 't1', [COLOR]).params
          : {
              kind: 'command',
              threadId: THREAD,
              turnId: 't1',
              itemId: 'c',
              startedAtMs: 1,
              command: 'ls',
              cwd: '/w',
            };
      await push(h.transport, { id: 9, method, params });
      expect(sentReplyTo(h.transport.sent, 9)).toMatchObject([{ error: { code: -32601 } }]);
      expect(sink.ofType('interaction.requested')).toHaveLength(0);
      await session.dispose();
    }
  });

  it('the 256-entry registry bound: 256 admitted, the 257th declined -32600 and not raised', async () => {
    const { h, session } = await openedHarness({ questions: 'bridge' });
    const { sink } = await startBound(h, session, 't1');
    for (let id = 0; id < 257; id += 1) h.transport.push(question(id, 't1', [COLOR]));
    await h.transport.drained();
    expect(sink.ofType('interaction.requested')).toHaveLength(256);
    expect(sentReplyTo(h.transport.sent, 256)).toMatchObject([{ error: { code: -32600 } }]);
    expect(sentReplyTo(h.transport.sent, 255)).toHaveLength(0);
    await session.dispose();
  });
});
