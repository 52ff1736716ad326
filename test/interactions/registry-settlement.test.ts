import { describe, expect, it } from 'vitest';
import {
  APPROVAL,
  approvalParams,
  registryHarness,
  raiseApproval,
  raiseQuestion,
  refOf,
  rejectionOf,
} from '../support/registry-harness.js';
import {
  fakeOffer,
  fakeOwner,
  realApprovalParams,
  realQuestionParams,
  THREAD,
  colorQuestion,
} from '../support/interaction-frames.js';
import { MAX_REMEMBERED_ANSWERS } from '../../src/interactions/registry.js';

describe('approval settlement', () => {
  it.each([
    [{ kind: 'approval', decision: 'approved', mode: 'once' }, 'accept'],
    [{ kind: 'approval', decision: 'approved', mode: 'session' }, 'acceptForSession'],
    [{ kind: 'approval', decision: 'denied', reason: 'not now' }, 'decline'],
  ])('%j → %s', async (response, decision) => {
    const h = registryHarness();
    const a = raiseApproval(h);
    await h.registry.respond(a.ref, response);
    expect(a.log.responded).toEqual([{ decision }]);
  });

  it('validates before consuming the settlement, so a refused response leaves it answerable', async () => {
    const h = registryHarness();
    const a = raiseApproval(h);
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
    const a = raiseApproval(h, 0, {
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
    const a = raiseApproval(h);
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
    const a = raiseApproval(h);
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
    const a = raiseApproval(h);
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
    const offered = fakeOffer(APPROVAL, approvalParams(), 0, false);
    h.registry.handleServerRequest(offered.offer);
    const ref = refOf(h.owner.events.at(-1));
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
    const q = raiseQuestion(h, 0, params);
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
    const q = raiseQuestion(h);
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
    const unknownValue = await rejectionOf(
      h.registry.respond(q.ref, {
        kind: 'question_set',
        answers: { q1: { type: 'selection', values: ['o7'] } },
      }),
    );
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
    const q = raiseQuestion(h, 0, params);
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

describe('withdrawal (serverRequest/resolved)', () => {
  it('unanswered: deletes, retires the offer without a reply, emits interaction.withdrawn once', async () => {
    const h = registryHarness();
    const q = raiseQuestion(h, 3);
    expect(h.registry.withdraw(3, THREAD)).toBe('withdrawn');
    expect(q.log).toEqual({ responded: [], rejected: [], retired: 1, attempts: 0 });
    expect(h.owner.events.at(-1)).toEqual({
      payload: { type: 'interaction.withdrawn', providerRef: q.ref },
    });
    expect(h.registry.size).toBe(0);
    expect(h.registry.withdraw(3, THREAD)).toBe('ignored');
    expect(h.owner.events).toHaveLength(2);
    const error = await rejectionOf(
      h.registry.respond(q.ref, {
        kind: 'question_set',
        answers: { q1: { type: 'selection', values: ['o1'] } },
      }),
    );
    expect(error.code).toBe('unknown_interaction');
    expect(q.log.responded).toEqual([]);
  });

  it('answered: a confirmation that keeps the entry; identical redelivery stays a no-op', async () => {
    const h = registryHarness();
    const a = raiseApproval(h, 'req-1');
    const denied = { kind: 'approval', decision: 'denied' };
    await h.registry.respond(a.ref, denied);
    expect(h.registry.withdraw('req-1', THREAD)).toBe('confirmed');
    expect(a.log.retired).toBe(1);
    expect(h.registry.size).toBe(1);
    await h.registry.respond(a.ref, denied);
    expect(h.registry.withdraw('req-1', THREAD)).toBe('duplicate');
    expect(a.log.retired).toBe(1);
    expect(a.log.responded).toEqual([{ decision: 'decline' }]);
    expect(a.log.attempts).toBe(1);
    expect(h.owner.events.filter((e) => e.payload.type === 'interaction.withdrawn')).toEqual([]);
  });

  it('another thread or an untracked id is ignored; 0 and "0" are different requests', () => {
    const h = registryHarness();
    const a = raiseApproval(h, 0);
    expect(h.registry.withdraw(0, 'another-thread')).toBe('ignored');
    expect(h.registry.withdraw('0', THREAD)).toBe('ignored');
    expect(h.registry.withdraw(1, THREAD)).toBe('ignored');
    expect(a.log.retired).toBe(0);
    expect(h.registry.size).toBe(1);
  });
});

describe('retirement', () => {
  it.each(['turn completion', 'interrupt initiation'])(
    '%s: unanswered approvals declined, batches answered empty, answered ones untouched, other runs kept',
    async () => {
      const h = registryHarness();
      const other = fakeOwner('run-2');
      const approval = raiseApproval(h, 0);
      const question = raiseQuestion(h, 1);
      const answered = raiseApproval(h, 2);
      await h.registry.respond(answered.ref, {
        kind: 'approval',
        decision: 'approved',
        mode: 'once',
      });
      h.setOwner({ ok: true, owner: other });
      const foreign = fakeOffer(APPROVAL, approvalParams(), 3);
      h.registry.handleServerRequest(foreign.offer);

      expect(h.registry.retireRun(h.owner)).toBe(3);
      expect(approval.log.responded).toEqual([{ decision: 'decline' }]);
      expect(question.log.responded).toEqual([{ answers: {} }]);
      expect(answered.log.responded).toEqual([{ decision: 'accept' }]);
      expect(foreign.log.responded).toEqual([]);
      expect(h.registry.size).toBe(1);
      // a retired, never-answered ref is gone
      const unknown = await rejectionOf(
        h.registry.respond(approval.ref, { kind: 'approval', decision: 'approved', mode: 'once' }),
      );
      expect(unknown.code).toBe('unknown_interaction');
      // an answered ref of an ended run: the exact retry is a no-op (docs/spi.md §6), a different
      // answer conflicts, and neither writes anything
      await h.registry.respond(answered.ref, {
        kind: 'approval',
        decision: 'approved',
        mode: 'once',
      });
      const conflict = await rejectionOf(
        h.registry.respond(answered.ref, { kind: 'approval', decision: 'denied' }),
      );
      expect(conflict.code).toBe('interaction_already_settled');
      expect(approval.log.responded).toHaveLength(1);
      expect(approval.log.attempts).toBe(1);
      expect(answered.log.attempts).toBe(1);
    },
  );

  it('a retired run releases its approval with decline: the turn may go on without it', () => {
    const h = registryHarness();
    const approval = raiseApproval(h, 0);
    expect(h.registry.retireRun(h.owner)).toBe(1);
    expect(approval.log.responded).toEqual([{ decision: 'decline' }]);
  });

  it('dispose: everything is released (an approval with cancel, ending the turn) and nothing further is admitted', async () => {
    const h = registryHarness();
    const approval = raiseApproval(h, 0);
    const question = raiseQuestion(h, 1);
    expect(h.registry.retireAll('dispose')).toBe(2);
    expect(h.registry.closedBy).toBe('dispose');
    // a disposed codex must not go on asking the model while it is torn down
    expect(approval.log.responded).toEqual([{ decision: 'cancel' }]);
    expect(question.log.responded).toEqual([{ answers: {} }]);
    const late = fakeOffer(APPROVAL, approvalParams(), 2);
    h.registry.handleServerRequest(late.offer);
    expect(late.log.rejected).toEqual([
      { code: -32600, message: 'no active turn owns the request' },
    ]);
    expect(h.diagnostics.at(-1)).toEqual({
      level: 'warning',
      code: 'interaction_not_owned',
      token: 'session_closing',
    });
    const error = await rejectionOf(
      h.registry.respond(question.ref, {
        kind: 'question_set',
        answers: { q1: { type: 'text', text: 'x' } },
      }),
    );
    expect(error.code).toBe('unknown_interaction');
  });

  it('EOF: replies are best effort, but entries go in every case and later answers are refused', async () => {
    const h = registryHarness();
    const offered = fakeOffer(APPROVAL, approvalParams(), 0, false);
    h.registry.handleServerRequest(offered.offer);
    const ref = refOf(h.owner.events.at(-1));
    expect(h.registry.retireAll('stream_end')).toBe(1);
    expect(offered.log.responded).toEqual([]);
    expect(h.registry.size).toBe(0);
    const error = await rejectionOf(
      h.registry.respond(ref, { kind: 'approval', decision: 'approved', mode: 'once' }),
    );
    expect(error.code).toBe('unknown_interaction');
  });
});

describe('answered refs of ended runs', () => {
  it(`are remembered for redelivery up to ${MAX_REMEMBERED_ANSWERS}, oldest forgotten first`, async () => {
    const h = registryHarness();
    const once = { kind: 'approval', decision: 'approved', mode: 'once' } as const;
    const refs: string[] = [];
    // runs of 200 approvals each (under the 256 live bound), answered, then retired
    for (let n = 0; n < MAX_REMEMBERED_ANSWERS + 1;) {
      const batch = Math.min(200, MAX_REMEMBERED_ANSWERS + 1 - n);
      for (let i = 0; i < batch; i += 1, n += 1) {
        const raised = raiseApproval(h, n);
        await h.registry.respond(raised.ref, once);
        refs.push(raised.ref);
      }
      h.registry.retireRun(h.owner);
    }
    expect(h.registry.size).toBe(0);
    // the newest 1024 still answer an exact retry with a no-op
    await h.registry.respond(refs.at(-1)!, once);
    await h.registry.respond(refs[1]!, once);
    // the oldest fell out of the bounded memory
    expect((await rejectionOf(h.registry.respond(refs[0]!, once))).code).toBe(
      'unknown_interaction',
    );
  });
});
