import { describe, expect, it } from 'vitest';
import { approvalOffer, registryHarness, rejectionOf } from '../support/registry-harness.js';
import {
  choosing,
  realApprovalParams,
  realQuestionParams,
  colorQuestion,
} from '../support/interaction-frames.js';

describe('approval settlement', () => {
  it.each([
    [{ kind: 'approval', decision: 'approved', mode: 'once' }, 'accept'],
    [{ kind: 'approval', decision: 'approved', mode: 'session' }, 'acceptForSession'],
    [{ kind: 'approval', decision: 'denied', reason: 'not now' }, 'decline'],
  ])('%j → %s', async (response, decision) => {
    const h = registryHarness();
    const a = h.raiseApproval();
    await h.registry.respond(a.ref, response);
    expect(a.log.responded).toEqual([{ decision }]);
  });

  it('validates before consuming the settlement, so a refused response leaves it answerable', async () => {
    const h = registryHarness();
    const a = h.raiseApproval();
    const cases: [unknown, string, unknown?][] = [
      [
        { kind: 'approval', decision: 'approved', mode: 'persistent' },
        'capability_unsupported',
        { supported: ['once', 'session'] },
      ],
      [{ kind: 'approval', decision: 'approved' }, 'invalid_request'],
      [{ kind: 'approval', decision: 'denied', mode: 'once' }, 'invalid_request'],
      [{ kind: 'approval', decision: 'maybe' }, 'invalid_request'],
      [{ kind: 'approval', decision: 'denied', extra: 1 }, 'invalid_request'],
      [
        { kind: 'question_set', answers: { q1: { type: 'text', text: 'x' } } },
        'capability_unsupported',
        { supported: ['approval'] },
      ],
      ['not a response', 'invalid_request'],
    ];
    for (const [response, code, details] of cases) {
      const error = await rejectionOf(h.registry.respond(a.ref, response));
      expect(error.code).toBe(code);
      if (details !== undefined) expect(error.details).toEqual(details);
    }
    expect(a.log.responded).toEqual([]);
    await h.registry.respond(a.ref, { kind: 'approval', decision: 'approved', mode: 'once' });
    expect(a.log.responded).toEqual([{ decision: 'accept' }]);
  });

  it('refuses a mode the request does not allow (a list offering only acceptForSession)', async () => {
    const h = registryHarness();
    const a = h.raiseApproval(0, {
      ...realApprovalParams(),
      availableDecisions: ['acceptForSession', 'cancel'],
    });
    const error = await rejectionOf(
      h.registry.respond(a.ref, { kind: 'approval', decision: 'approved', mode: 'once' }),
    );
    expect(error.code).toBe('invalid_request');
    await h.registry.respond(a.ref, { kind: 'approval', decision: 'denied' });
    expect(a.log.responded).toEqual([{ decision: 'decline' }]);
    expect(a.log.attempts).toBe(1);
  });

  it('identical redelivery is a no-op; a different answer is interaction_already_settled', async () => {
    const h = registryHarness();
    const a = h.raiseApproval();
    const once = { kind: 'approval', decision: 'approved', mode: 'once' };
    await h.registry.respond(a.ref, once);
    await h.registry.respond(a.ref, { ...once });
    const error = await rejectionOf(
      h.registry.respond(a.ref, { kind: 'approval', decision: 'approved', mode: 'session' }),
    );
    expect(error.code).toBe('interaction_already_settled');
    const withReason = await rejectionOf(h.registry.respond(a.ref, { ...once, reason: 'r' }));
    expect(withReason.code).toBe('interaction_already_settled');
    expect(a.log.responded).toEqual([{ decision: 'accept' }]);
    expect(a.log.attempts).toBe(1);
  });

  it('concurrent duplicate responses write exactly one native reply', async () => {
    const h = registryHarness();
    const a = h.raiseApproval();
    const response = { kind: 'approval', decision: 'approved', mode: 'once' } as const;
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => h.registry.respond(a.ref, response)),
    );
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(a.log.responded).toEqual([{ decision: 'accept' }]);
    expect(a.log.attempts).toBe(1);
  });

  it('concurrent conflicting responses: the first wins, the rest are interaction_already_settled', async () => {
    const h = registryHarness();
    const a = h.raiseApproval();
    const results = await Promise.allSettled([
      h.registry.respond(a.ref, { kind: 'approval', decision: 'denied' }),
      h.registry.respond(a.ref, { kind: 'approval', decision: 'approved', mode: 'once' }),
      h.registry.respond(a.ref, { kind: 'approval', decision: 'approved', mode: 'session' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    for (const r of results.slice(1)) {
      if (r.status === 'rejected')
        expect((r.reason as { agentError: { code: string } }).agentError.code).toBe(
          'interaction_already_settled',
        );
    }
    expect(a.log.responded).toEqual([{ decision: 'decline' }]);
    expect(a.log.attempts).toBe(1);
  });

  it('an unknown ref is unknown_interaction and the ref is never echoed', async () => {
    const h = registryHarness();
    const ref = 'approval-deadbeef-REF-CANARY-1';
    const error = await rejectionOf(
      h.registry.respond(ref, { kind: 'approval', decision: 'denied' }),
    );
    expect(error.code).toBe('unknown_interaction');
    expect(JSON.stringify(error)).not.toContain('REF-CANARY');
  });

  it('a reply the client can no longer write removes the entry and is refused', async () => {
    const h = registryHarness();
    const { ref } = h.raise(approvalOffer(0, {}, false));
    const error = await rejectionOf(
      h.registry.respond(ref, { kind: 'approval', decision: 'denied' }),
    );
    expect(error.code).toBe('unknown_interaction');
    expect(h.registry.size).toBe(0);
    expect(h.diagnostics.at(-1)).toEqual({ level: 'warning', code: 'interaction_reply_failed' });
  });
});

describe('question settlement', () => {
  const answers = { q1: { type: 'selection', values: ['o1'] } };

  it('answers the native map; reordered redelivery is a no-op; a different one conflicts', async () => {
    const h = registryHarness();
    const params = {
      ...realQuestionParams(),
      questions: [
        colorQuestion(),
        {
          id: 'name',
          header: '',
          question: 'Name?',
          isOther: false,
          isSecret: true,
          options: null,
        },
      ],
    };
    const q = h.raiseQuestion(0, params);
    const full = {
      kind: 'question_set',
      answers: { q1: { type: 'selection', values: ['o1'] }, q2: { type: 'text', text: 'Ada' } },
    };
    await h.registry.respond(q.ref, full);
    await h.registry.respond(q.ref, {
      kind: 'question_set',
      answers: { q2: { type: 'text', text: 'Ada' }, q1: { type: 'selection', values: ['o1'] } },
    });
    const error = await rejectionOf(
      h.registry.respond(q.ref, {
        kind: 'question_set',
        answers: { q1: { type: 'text', text: 'Blue' }, q2: { type: 'text', text: 'Ada' } },
      }),
    );
    expect(error.code).toBe('interaction_already_settled');
    expect(q.log.responded).toEqual([
      { answers: { color_choice: { answers: ['Red'] }, name: { answers: ['Ada'] } } },
    ]);
    expect(q.log.attempts).toBe(1);
  });

  it('refuses wrong kinds and partial answers before consuming the settlement', async () => {
    const h = registryHarness();
    const q = h.raiseQuestion();
    const wrong = await rejectionOf(
      h.registry.respond(q.ref, { kind: 'approval', decision: 'denied' }),
    );
    expect(wrong).toMatchObject({
      code: 'capability_unsupported',
      details: { supported: ['question_set'] },
    });
    const single = await rejectionOf(
      h.registry.respond(q.ref, { kind: 'question', answer: 'Red' }),
    );
    expect(single.code).toBe('capability_unsupported');
    const partial = await rejectionOf(
      h.registry.respond(q.ref, { kind: 'question_set', answers: {} }),
    );
    expect(partial.code).toBe('invalid_request');
    expect(partial.message).toMatch(/^the codex question batch was answered invalidly: /);
    const unknownValue = await rejectionOf(h.registry.respond(q.ref, choosing('o7')));
    expect(unknownValue.code).toBe('invalid_request');
    expect(q.log.responded).toEqual([]);
    await h.registry.respond(q.ref, { kind: 'question_set', answers });
    expect(q.log.responded).toEqual([{ answers: { color_choice: { answers: ['Red'] } } }]);
  });

  it('prototype-sensitive native ids survive the whole path', async () => {
    const h = registryHarness();
    const params = {
      ...realQuestionParams(),
      questions: ['__proto__', 'constructor', 'toString'].map((id) => ({
        id,
        header: '',
        question: `${id}?`,
        isOther: false,
        isSecret: false,
        options: null,
      })),
    };
    const q = h.raiseQuestion(0, params);
    await h.registry.respond(q.ref, {
      kind: 'question_set',
      answers: {
        q1: { type: 'text', text: 'a' },
        q2: { type: 'text', text: 'b' },
        q3: { type: 'text', text: 'c' },
      },
    });
    expect(q.log.responded).toHaveLength(1);
    expect(q.log.attempts).toBe(1);
    const reply = q.log.responded[0] as { answers: object };
    expect(Object.keys(reply.answers)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(JSON.stringify(reply)).toBe(
      '{"answers":{"__proto__":{"answers":["a"]},"constructor":{"answers":["b"]},"toString":{"answers":["c"]}}}',
    );
  });
});
