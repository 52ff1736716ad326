/**
 * Blocking questions through the whole adapter, on the fake transport, hand-built from the pinned
 * schema (the stable surface only sends non-blocking ones): the neutral question_set, answers
 * keyed by native ids, withdrawal, retirement and the registry bound.
 */
import { type QuestionSetResponse } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { colorQuestion } from '../support/interaction-frames.js';
import {
  completed,
  push,
  startBound,
  userInputRequest,
  THREAD,
  turns,
  openedHarness,
} from '../support/provider-frames.js';
import { until } from '../support/recorded.js';
import { ANY_QUESTION_ANSWER, answerRefusal, sentReplyTo } from '../support/session-replies.js';

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
    const partial = await answerRefusal(session, requested!.providerRef, {
      kind: 'question_set',
      answers: { q1: { type: 'selection', values: ['o2'] } },
    });
    expect(partial).toBe('invalid_request');
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
    const conflicting = await answerRefusal(session, requested!.providerRef, {
      kind: 'question_set',
      answers: { ...answers, q1: { type: 'selection', values: ['o1'] } },
    });
    expect(conflicting).toBe('interaction_already_settled');
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
    const late = await answerRefusal(session, first!.providerRef, ANY_QUESTION_ANSWER);
    expect(late).toBe('unknown_interaction');
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
      const late = await answerRefusal(session, requested!.providerRef, ANY_QUESTION_ANSWER);
      expect(late).toBe('unknown_interaction');
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
