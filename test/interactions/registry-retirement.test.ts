/** The registry's entries ending: withdrawal by codex, retirement with the run, remembered answers. */
import { describe, expect, it } from 'vitest';
import { approvalOffer, registryHarness, rejectionOf } from '../support/registry-harness.js';
import { choosing, fakeOwner, THREAD } from '../support/interaction-frames.js';
import { MAX_REMEMBERED_ANSWERS } from '../../src/interactions/registry.js';

describe('withdrawal (serverRequest/resolved)', () => {
  it('unanswered: deletes, retires the offer without a reply, emits interaction.withdrawn once', async () => {
    const h = registryHarness();
    const q = h.raiseQuestion(3);
    expect(h.registry.withdraw(3, THREAD)).toBe('withdrawn');
    expect(q.log).toEqual({ responded: [], rejected: [], retired: 1, attempts: 0 });
    expect(h.owner.events.at(-1)).toEqual({
      payload: { type: 'interaction.withdrawn', providerRef: q.ref },
    });
    expect(h.registry.size).toBe(0);
    expect(h.registry.withdraw(3, THREAD)).toBe('ignored');
    expect(h.owner.events).toHaveLength(2);
    const error = await rejectionOf(h.registry.respond(q.ref, choosing('o1')));
    expect(error.code).toBe('unknown_interaction');
    expect(q.log.responded).toEqual([]);
  });

  it('answered: a confirmation that keeps the entry; identical redelivery stays a no-op', async () => {
    const h = registryHarness();
    const a = h.raiseApproval('req-1');
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
    const a = h.raiseApproval(0);
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
      const approval = h.raiseApproval(0);
      const question = h.raiseQuestion(1);
      const answered = h.raiseApproval(2);
      await h.registry.respond(answered.ref, {
        kind: 'approval',
        decision: 'approved',
        mode: 'once',
      });
      h.setOwner({ ok: true, owner: other });
      const foreign = approvalOffer(3);
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
    const approval = h.raiseApproval(0);
    expect(h.registry.retireRun(h.owner)).toBe(1);
    expect(approval.log.responded).toEqual([{ decision: 'decline' }]);
  });

  it('dispose: everything is released (an approval with cancel, ending the turn) and nothing further is admitted', async () => {
    const h = registryHarness();
    const approval = h.raiseApproval(0);
    const question = h.raiseQuestion(1);
    expect(h.registry.retireAll('dispose')).toBe(2);
    expect(h.registry.closedBy).toBe('dispose');
    // a disposed codex must not go on asking the model while it is torn down
    expect(approval.log.responded).toEqual([{ decision: 'cancel' }]);
    expect(question.log.responded).toEqual([{ answers: {} }]);
    const late = approvalOffer(2);
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
    const { ref, ...offered } = h.raise(approvalOffer(0, {}, false));
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
        const raised = h.raiseApproval(n);
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
