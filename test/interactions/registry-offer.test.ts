import { describe, expect, it } from 'vitest';
import {
  approvalOffer,
  approvalParams,
  questionOffer,
  registryHarness,
  rejectionOf,
} from '../support/registry-harness.js';
import {
  choosing,
  fakeOffer,
  realQuestionParams,
  THREAD,
  TURN,
} from '../support/interaction-frames.js';
import { isProviderRejection } from '@relvo-labs/agent-provider';
import { MAX_TRACKED_INTERACTIONS } from '../../src/interactions/registry.js';

describe('bridge gate', () => {
  it('approvals only: questions and other methods are handed back unhandled', () => {
    const h = registryHarness({ approvals: true, questions: false });
    const q = questionOffer();
    expect(h.registry.handleServerRequest(q.offer)).toBe(false);
    expect(q.log).toEqual({ responded: [], rejected: [], retired: 0, attempts: 0 });
    expect(
      h.registry.handleServerRequest(fakeOffer('item/fileChange/requestApproval', {}).offer),
    ).toBe(false);
    expect(h.registry.handleServerRequest(approvalOffer(1).offer)).toBe(true);
    expect(h.owner.events).toHaveLength(1);
  });

  it('questions only: approvals are handed back unhandled', () => {
    const h = registryHarness({ approvals: false, questions: true });
    const a = approvalOffer();
    expect(h.registry.handleServerRequest(a.offer)).toBe(false);
    expect(a.log).toEqual({ responded: [], rejected: [], retired: 0, attempts: 0 });
    const q = questionOffer(1);
    expect(h.registry.handleServerRequest(q.offer)).toBe(true);
    expect(h.owner.events).toHaveLength(1);
    expect(h.registry.bridges(a.offer.method)).toBe(false);
    expect(h.registry.bridges(q.offer.method)).toBe(true);
  });
});

describe('offer flow', () => {
  it('raises interaction.requested on the owner sink with a minted ref', () => {
    const h = registryHarness();
    const a = h.raiseApproval('call_exec_1');
    const q = h.raiseQuestion(7);
    expect(a.ref).toMatch(/^approval-[0-9a-f-]{36}-1$/);
    expect(q.ref).toMatch(/^question-[0-9a-f-]{36}-2$/);
    expect(a.ref).not.toContain('call_exec_1');
    expect(h.correlations).toEqual([
      { threadId: THREAD, turnId: TURN },
      { threadId: THREAD, turnId: TURN },
    ]);
    expect(h.owner.events[0]?.payload).toMatchObject({
      type: 'interaction.requested',
      request: { kind: 'approval' },
    });
    expect(h.owner.events[1]?.payload).toMatchObject({
      type: 'interaction.requested',
      request: { kind: 'question_set' },
    });
    expect(a.log.rejected).toEqual([]);
    expect(h.registry.size).toBe(2);
  });

  it('uses a fresh nonce per registry, so one session can never settle another session’s ref', async () => {
    const one = registryHarness();
    const two = registryHarness();
    const a = one.raiseApproval();
    const b = two.raiseApproval();
    expect(a.ref.split('-').slice(1, 6).join('-')).not.toBe(b.ref.split('-').slice(1, 6).join('-'));
    const error = await rejectionOf(
      two.registry.respond(a.ref, { kind: 'approval', decision: 'denied' }),
    );
    expect(error.code).toBe('unknown_interaction');
    expect(a.log.responded).toEqual([]);
  });

  it('a refused translation answers -32602 with the token, raises nothing and tracks nothing', () => {
    const h = registryHarness();
    const offered = approvalOffer(0, { kind: 'writeStdin' });
    expect(h.registry.handleServerRequest(offered.offer)).toBe(true);
    expect(offered.log.rejected).toEqual([
      { code: -32602, message: 'request cannot be represented faithfully (kind_unsupported)' },
    ]);
    expect(h.diagnostics).toEqual([
      { level: 'warning', code: 'interaction_refused', token: 'kind_unsupported' },
    ]);
    expect(h.correlations).toEqual([]);
    expect(h.owner.events).toEqual([]);
    expect(h.registry.size).toBe(0);

    const question = questionOffer(1, { ...realQuestionParams(), isBlocking: false });
    h.registry.handleServerRequest(question.offer);
    expect(question.log.rejected[0]?.code).toBe(-32602);
    expect(h.diagnostics.at(-1)?.token).toBe('not_blocking');
  });

  it.each([
    'no_active_run',
    'run_not_bound',
    'run_concluded',
    'run_interrupting',
    'session_fenced',
    'correlation_mismatch',
  ] as const)('an unowned request (%s) answers -32600 and raises nothing', (reason) => {
    const h = registryHarness();
    h.setOwner({ ok: false, reason });
    const offered = approvalOffer();
    expect(h.registry.handleServerRequest(offered.offer)).toBe(true);
    expect(offered.log.rejected).toEqual([
      { code: -32600, message: 'no active turn owns the request' },
    ]);
    expect(h.diagnostics).toEqual([
      { level: 'warning', code: 'interaction_not_owned', token: reason },
    ]);
    expect(h.owner.events).toEqual([]);
    expect(h.registry.size).toBe(0);
  });

  it(`tracks ${MAX_TRACKED_INTERACTIONS} entries and declines the next with -32600`, () => {
    const h = registryHarness();
    for (let id = 0; id < MAX_TRACKED_INTERACTIONS; id += 1) h.raiseApproval(id);
    expect(h.registry.size).toBe(256);
    expect(h.owner.events).toHaveLength(256);
    const next = approvalOffer(256);
    expect(h.registry.handleServerRequest(next.offer)).toBe(true);
    expect(next.log.rejected).toEqual([
      { code: -32600, message: 'too many outstanding interactions' },
    ]);
    expect(h.diagnostics).toEqual([{ level: 'warning', code: 'interactions_full' }]);
    expect(h.owner.events).toHaveLength(256);
    // Entries leave when their run ends; then there is room again.
    expect(h.registry.retireRun(h.owner)).toBe(256);
    h.raiseApproval(257);
    expect(h.registry.size).toBe(1);
  });

  it('settled entries count towards the bound until their run ends', async () => {
    const h = registryHarness();
    const refs: string[] = [];
    for (let id = 0; id < MAX_TRACKED_INTERACTIONS; id += 1) refs.push(h.raiseApproval(id).ref);
    await Promise.all(
      refs.map((ref) => h.registry.respond(ref, { kind: 'approval', decision: 'denied' })),
    );
    const next = approvalOffer(999);
    h.registry.handleServerRequest(next.offer);
    expect(next.log.rejected[0]?.code).toBe(-32600);
  });
});

describe('defensive: a tracked native id offered again', () => {
  it('is neither answered nor raised (an answer would settle the first request)', () => {
    const h = registryHarness();
    const first = h.raiseApproval(5);
    const again = approvalOffer(5);
    expect(h.registry.handleServerRequest(again.offer)).toBe(true);
    expect(again.log.attempts).toBe(0);
    expect(first.log.attempts).toBe(0);
    expect(h.owner.events).toHaveLength(1);
    expect(h.diagnostics).toEqual([{ level: 'warning', code: 'interaction_request_reused' }]);
  });
});

describe('canaries: payload text never reaches diagnostics, errors or native error messages', () => {
  it('no prompt, command, option, answer or native id text leaks', async () => {
    const C = 'CANARY-7f3a';
    const h = registryHarness();
    const texts: string[] = [];
    const collect = async (promise: Promise<unknown>) => {
      try {
        await promise;
      } catch (error) {
        if (isProviderRejection(error)) texts.push(error.message, JSON.stringify(error.agentError));
        else throw error;
      }
    };
    const canaryPatch = {
      itemId: `${C}-item`,
      command: `echo ${C}-command`,
      cwd: `/tmp/${C}-cwd`,
      reason: `${C}-reason`,
    };
    const approvalCanary = approvalParams(canaryPatch);
    const a = h.raiseApproval(`${C}-id-1`, approvalCanary);
    const qParams = {
      ...realQuestionParams(),
      itemId: `${C}-item`,
      questions: [
        {
          id: `${C}-qid`,
          header: `${C}-header`,
          question: `${C}-prompt`,
          isOther: true,
          isSecret: true,
          options: [{ label: `${C}-label`, description: `${C}-desc` }],
        },
      ],
    };
    const q = h.raiseQuestion(`${C}-id-2`, qParams);
    // Refusals of each token, with canary text in the refused requests.
    const refused = [
      { kind: 'writeStdin' },
      { environmentId: `${C}-env` },
      { command: '' },
      { networkApprovalContext: { host: `${C}.example`, protocol: 'https' } },
      { extra: C },
    ].map((patch) => approvalOffer(`${C}-r`, patch));
    refused.push(questionOffer(`${C}-r2`, { ...qParams, isBlocking: false }));
    for (const offered of refused) h.registry.handleServerRequest(offered.offer);
    for (const offered of refused) texts.push(offered.log.rejected[0]!.message);
    h.setOwner({ ok: false, reason: 'correlation_mismatch' });
    const unowned = approvalOffer(`${C}-r3`, canaryPatch);
    h.registry.handleServerRequest(unowned.offer);
    h.setOwner({ ok: true, owner: h.owner });

    await collect(
      h.registry.respond(a.ref, {
        kind: 'approval',
        decision: 'denied',
        mode: 'once',
        reason: `${C}-why`,
      }),
    );
    await collect(h.registry.respond(q.ref, choosing(`${C}-value`)));
    await collect(
      h.registry.respond(q.ref, {
        kind: 'question_set',
        answers: { [`${C}key`]: { type: 'text', text: `${C}-answer` } },
      }),
    );
    await collect(
      h.registry.respond(q.ref, {
        kind: 'question_set',
        answers: { q1: { type: 'text', text: `${C}-answer` } },
      }),
    );
    await collect(
      h.registry.respond(q.ref, {
        kind: 'question_set',
        answers: { q1: { type: 'text', text: `${C}-other` } },
      }),
    );
    await collect(h.registry.respond(`${C}-ref`, { kind: 'approval', decision: 'denied' }));
    await collect(
      h.registry.respond(a.ref, { kind: 'approval', decision: 'approved', mode: 'persistent' }),
    );

    const published = [
      ...texts,
      ...h.diagnostics.map((d) => JSON.stringify(d)),
      ...h.owner.events
        .filter((e) => e.payload.type !== 'interaction.requested')
        .map((e) => JSON.stringify(e)),
    ];
    // Every refusal path above was exercised and produced something to inspect.
    expect(texts.length).toBeGreaterThanOrEqual(16);
    expect(h.diagnostics.length).toBe(7);
    for (const text of published) expect(text).not.toContain(C);
    // Native error messages carry tokens only (the -32602 / -32600 answers).
    expect(unowned.log.rejected[0]?.message).not.toContain(C);
    expect(a.log.responded).toEqual([]);
    expect(q.log.responded).toEqual([{ answers: { [`${C}-qid`]: { answers: [`${C}-answer`] } } }]);
  });
});
