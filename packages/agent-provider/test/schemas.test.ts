import { describe, expect, it } from 'vitest';
import {
  agentErrorSchema,
  approvalRequestSchema,
  captureJson,
  interactionSettlementSchema,
  providerDescriptorSchema,
  providerEventInputSchema,
  providerRecoveryRecordSchema,
  providerRunTerminationSchema,
  runTerminationSchema,
  turnInputSchema,
} from '../src/index.js';
import {
  PROVIDER_EMITTABLE_EVENT_TYPES,
  providerEventPayloadSchema,
} from '../src/schemas/events.js';
import { runOptionsSchema } from '../src/schemas/turn.js';
import { questionRequestSchema } from '../src/schemas/interaction.js';
import { agentInteractionSchema } from '../src/schemas/termination.js';

const base = {
  providerId: 'demo',
  providerVersion: '1.0.0',
  wireVersion: '0.8',
  displayName: 'Demo',
};
const minimal = { ...base, workspace: { requires: 'directory' } };

describe('provider descriptor', () => {
  it('fills every default with the least capable value', () => {
    expect(providerDescriptorSchema.parse(minimal)).toEqual({
      ...base,
      run: {
        interrupt: {
          mode: 'unsupported',
          deliversPartialOutput: false,
          sessionRemainsUsable: false,
        },
        streaming: { messageDeltas: false, toolActivity: false, incrementalUsage: false },
        maxConcurrentRunsPerSession: 1,
        steer: false,
        structuredOutput: false,
        options: { model: false, effort: false, summary: false },
        injectContext: false,
      },
      interaction: {
        approval: { supported: false, modes: [], blocking: true },
        question: {
          supported: false,
          choices: false,
          multiSelect: false,
          batch: false,
          maxQuestions: null,
          freeText: false,
          sensitive: false,
        },
        toolCall: { supported: false, maxTools: 64 },
        settlementTimeoutMs: null,
      },
      workspace: { requires: 'directory', acceptsOwnership: ['borrowed', 'managed'], writes: true },
      recovery: {
        exportsRecoveryRecord: false,
        resumesFromRecoveryRecord: false,
        forksFromRecoveryRecord: false,
      },
      session: { revert: false, history: false },
      extensions: {},
    });
  });

  it('does not share default arrays between parses', () => {
    const a = providerDescriptorSchema.parse(minimal);
    const b = providerDescriptorSchema.parse(minimal);
    expect(a.workspace.acceptsOwnership).not.toBe(b.workspace.acceptsOwnership);
    expect(a.interaction.approval.modes).not.toBe(b.interaction.approval.modes);
    expect(a.extensions).not.toBe(b.extensions);
  });

  it('requires workspace.requires and the identity members', () => {
    expect(providerDescriptorSchema.safeParse(base).success).toBe(false);
    expect(providerDescriptorSchema.safeParse({ ...minimal, workspace: {} }).success).toBe(false);
    for (const key of ['providerId', 'providerVersion', 'wireVersion', 'displayName'] as const) {
      const copy = Object.fromEntries(Object.entries(minimal).filter(([k]) => k !== key));
      expect(providerDescriptorSchema.safeParse(copy).success, key).toBe(false);
    }
  });

  it.each([
    ['providerId', 'a', true],
    ['providerId', 'a-b9', true],
    ['providerId', 'A', false],
    ['providerId', '9a', false],
    ['providerId', 'a_b', false],
    ['providerId', 'a'.repeat(64), true],
    ['providerId', 'a'.repeat(65), false],
    ['providerVersion', 'v'.repeat(64), true],
    ['providerVersion', 'v'.repeat(65), false],
    ['wireVersion', 'w'.repeat(16), true],
    ['wireVersion', 'w'.repeat(17), false],
    ['displayName', 'd'.repeat(128), true],
    ['displayName', 'd'.repeat(129), false],
    ['displayName', '', false],
  ])('%s = %j -> %s', (key, value, ok) => {
    expect(providerDescriptorSchema.safeParse({ ...minimal, [key]: value }).success).toBe(ok);
  });

  it('is strict at every level', () => {
    const bad = [
      { ...minimal, extra: true },
      { ...minimal, run: { extra: true } },
      { ...minimal, run: { streaming: { extra: true } } },
      { ...minimal, interaction: { question: { extra: true } } },
      { ...minimal, interaction: { approval: { extra: true } } },
      { ...minimal, workspace: { requires: 'none', extra: true } },
      { ...minimal, recovery: { extra: true } },
    ];
    for (const value of bad) expect(providerDescriptorSchema.safeParse(value).success).toBe(false);
  });

  it('interrupt union: supported modes default to true, unsupported forces literal false', () => {
    const parse = (interrupt: unknown) =>
      providerDescriptorSchema.safeParse({ ...minimal, run: { interrupt } });
    expect(parse({ mode: 'immediate' }).data?.run.interrupt).toEqual({
      mode: 'immediate',
      deliversPartialOutput: true,
      sessionRemainsUsable: true,
    });
    expect(
      parse({ mode: 'cooperative', sessionRemainsUsable: false }).data?.run.interrupt
        .sessionRemainsUsable,
    ).toBe(false);
    expect(parse({ mode: 'unsupported', sessionRemainsUsable: true }).success).toBe(false);
    expect(parse({ mode: 'unsupported', deliversPartialOutput: true }).success).toBe(false);
    expect(parse({ mode: 'sometimes' }).success).toBe(false);
  });

  it('recovery union: {} is no recovery, export may resume, resume without export fails', () => {
    const parse = (recovery: unknown) =>
      providerDescriptorSchema.safeParse({ ...minimal, recovery });
    expect(parse({}).data?.recovery).toEqual({
      exportsRecoveryRecord: false,
      resumesFromRecoveryRecord: false,
      forksFromRecoveryRecord: false,
    });
    expect(parse({ exportsRecoveryRecord: true }).data?.recovery).toEqual({
      exportsRecoveryRecord: true,
      resumesFromRecoveryRecord: false,
      forksFromRecoveryRecord: false,
    });
    // a fork starts from an exported record, like a resume
    expect(parse({ exportsRecoveryRecord: true, forksFromRecoveryRecord: true }).success).toBe(
      true,
    );
    expect(parse({ forksFromRecoveryRecord: true }).success).toBe(false);
    expect(parse({ exportsRecoveryRecord: true, resumesFromRecoveryRecord: true }).success).toBe(
      true,
    );
    expect(parse({ resumesFromRecoveryRecord: true }).success).toBe(false);
    expect(parse({ exportsRecoveryRecord: false, resumesFromRecoveryRecord: true }).success).toBe(
      false,
    );
  });

  it('per-run options: each declared on its own; the request values are bounded tokens', () => {
    const run = (options: unknown) =>
      providerDescriptorSchema.safeParse({ ...minimal, run: { options } });
    expect(run({ effort: true }).data?.run.options).toEqual({
      model: false,
      effort: true,
      summary: false,
    });
    expect(run({ temperature: true }).success).toBe(false);
    expect(
      runOptionsSchema.safeParse({ model: 'gpt-5', effort: 'high', summary: 'none' }).success,
    ).toBe(true);
    for (const bad of [
      { model: 'two words' },
      { effort: 'HIGH' },
      { summary: 'brief' },
      { x: 1 },
    ]) {
      expect(runOptionsSchema.safeParse(bad).success).toBe(false);
    }
  });

  it('bounds numeric capabilities', () => {
    const run = (n: unknown) =>
      providerDescriptorSchema.safeParse({ ...minimal, run: { maxConcurrentRunsPerSession: n } });
    expect(run(2).success).toBe(true);
    expect(run(0).success).toBe(false);
    expect(run(1.5).success).toBe(false);
    const q = (maxQuestions: unknown) =>
      providerDescriptorSchema.safeParse({
        ...minimal,
        interaction: { question: { maxQuestions } },
      }).success;
    expect(q(null)).toBe(true);
    expect(q(4)).toBe(true);
    expect(q(0)).toBe(false);
    const t = (settlementTimeoutMs: unknown) =>
      providerDescriptorSchema.safeParse({ ...minimal, interaction: { settlementTimeoutMs } })
        .success;
    expect(t(null)).toBe(true);
    expect(t(1000)).toBe(true);
    expect(t(-1)).toBe(false);
  });

  it('extensions must be JSON', () => {
    expect(
      providerDescriptorSchema.safeParse({ ...minimal, extensions: { a: [1, { b: null }] } })
        .success,
    ).toBe(true);
    expect(
      providerDescriptorSchema.safeParse({ ...minimal, extensions: { a: Number.NaN } }).success,
    ).toBe(false);
    expect(providerDescriptorSchema.safeParse({ ...minimal, extensions: [] }).success).toBe(false);
  });
});

describe('turn input', () => {
  const path = (p: string) =>
    turnInputSchema.safeParse({ parts: [{ type: 'file_ref', path: p }] }).success;

  it.each(['a.txt', 'src/a.ts', 'a..b/c', '..a', 'a/..b', 'dir\\file', '.hidden'])(
    'accepts relative path %j',
    (p) => {
      expect(path(p)).toBe(true);
    },
  );

  it.each([
    '/etc/passwd',
    'C:\\x',
    'c:/x',
    '..',
    '../a',
    'a/../b',
    'a/..',
    'a\\..\\b',
    '..\\a',
    '',
  ])('rejects path %j', (p) => {
    expect(path(p)).toBe(false);
  });

  it('bounds path, text and part count', () => {
    expect(path('p'.repeat(4096))).toBe(true);
    expect(path('p'.repeat(4097))).toBe(false);
    const text = (n: number) =>
      turnInputSchema.safeParse({ parts: [{ type: 'text', text: 't'.repeat(n) }] }).success;
    expect(text(1_000_000)).toBe(true);
    expect(text(1_000_001)).toBe(false);
    expect(text(0)).toBe(false);
    const parts = (n: number) =>
      turnInputSchema.safeParse({
        parts: Array.from({ length: n }, () => ({ type: 'text', text: 't' })),
      }).success;
    expect(parts(256)).toBe(true);
    expect(parts(257)).toBe(false);
    expect(parts(0)).toBe(false);
  });

  it('is strict and carries optional JSON metadata', () => {
    expect(turnInputSchema.safeParse({ parts: [{ type: 'text', text: 't', x: 1 }] }).success).toBe(
      false,
    );
    expect(turnInputSchema.safeParse({ parts: [{ type: 'image', url: 'u' }] }).success).toBe(false);
    expect(
      turnInputSchema.safeParse({ parts: [{ type: 'text', text: 't' }], metadata: { a: 1 } })
        .success,
    ).toBe(true);
    expect(
      turnInputSchema.safeParse({ parts: [{ type: 'text', text: 't' }], metadata: 'm' }).success,
    ).toBe(false);
  });
});

describe('provider event inputs', () => {
  const ok = (payload: unknown) => providerEventInputSchema.safeParse({ payload }).success;
  const question = { kind: 'question', prompt: 'Why?' };

  it('lists exactly the seven emittable types', () => {
    expect([...PROVIDER_EMITTABLE_EVENT_TYPES].sort()).toEqual(
      [
        'diagnostic',
        'interaction.requested',
        'interaction.withdrawn',
        'run.extension',
        'run.message_delta',
        'run.tool_activity',
        'run.usage',
      ].sort(),
    );
    expect(Object.isFrozen(PROVIDER_EMITTABLE_EVENT_TYPES)).toBe(true);
  });

  it('accepts one valid payload of each type', () => {
    expect(ok({ type: 'run.message_delta', text: 'hi' })).toBe(true);
    expect(
      ok({ type: 'run.tool_activity', toolName: 'sh', phase: 'invoked', detail: { a: 1 } }),
    ).toBe(true);
    expect(ok({ type: 'run.usage', usage: {} })).toBe(true);
    expect(
      ok({ type: 'run.usage', usage: { inputTokens: 0, outputTokens: 3, totalTokens: 3 } }),
    ).toBe(true);
    expect(ok({ type: 'interaction.requested', request: question, providerRef: 'r1' })).toBe(true);
    expect(ok({ type: 'diagnostic', level: 'warning', message: 'm' })).toBe(true);
    expect(ok({ type: 'interaction.withdrawn', providerRef: 'r1' })).toBe(true);
  });

  it('enforces bounds at n and n+1', () => {
    const s = (n: number) => 'x'.repeat(n);
    expect(ok({ type: 'run.message_delta', text: s(100_000) })).toBe(true);
    expect(ok({ type: 'run.message_delta', text: s(100_001) })).toBe(false);
    expect(ok({ type: 'run.message_delta', text: '' })).toBe(false);
    expect(ok({ type: 'run.tool_activity', toolName: s(200), phase: 'failed' })).toBe(true);
    expect(ok({ type: 'run.tool_activity', toolName: s(201), phase: 'failed' })).toBe(false);
    expect(ok({ type: 'diagnostic', level: 'info', message: s(4000) })).toBe(true);
    expect(ok({ type: 'diagnostic', level: 'info', message: s(4001) })).toBe(false);
    expect(ok({ type: 'interaction.withdrawn', providerRef: s(200) })).toBe(true);
    expect(ok({ type: 'interaction.withdrawn', providerRef: s(201) })).toBe(false);
    expect(ok({ type: 'interaction.requested', request: question, providerRef: '' })).toBe(false);
  });

  it('rejects bad enums, negative or fractional usage, unknown members and runtime-stamped members', () => {
    expect(ok({ type: 'run.tool_activity', toolName: 'sh', phase: 'started' })).toBe(false);
    expect(ok({ type: 'diagnostic', level: 'error', message: 'm' })).toBe(false);
    expect(ok({ type: 'run.usage', usage: { inputTokens: -1 } })).toBe(false);
    expect(ok({ type: 'run.usage', usage: { inputTokens: 1.5 } })).toBe(false);
    expect(ok({ type: 'run.usage', usage: { cachedTokens: 1 } })).toBe(false);
    expect(ok({ type: 'run.message_delta', text: 'a', runId: 'run_1' })).toBe(false);
    expect(ok({ type: 'session.opened' })).toBe(false);
    for (const stamp of ['eventId', 'sequence', 'occurredAt', 'sessionId', 'runId']) {
      const input = { payload: { type: 'run.message_delta', text: 'a' }, [stamp]: 1 };
      expect(providerEventInputSchema.safeParse(input).success, stamp).toBe(false);
    }
  });

  it('keeps a captured __proto__ key in a detail carrier', () => {
    const captured = captureJson(JSON.parse('{"__proto__":{"polluted":true}}'));
    expect(captured.ok).toBe(true);
    if (!captured.ok) return;
    const parsed = providerEventPayloadSchema.parse({
      type: 'diagnostic',
      level: 'debug',
      message: 'm',
      detail: captured.value,
    });
    expect(parsed.type === 'diagnostic' && Object.keys(parsed.detail ?? {})).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('other requests', () => {
  it('question request defaults and bounds', () => {
    expect(questionRequestSchema.parse({ kind: 'question', prompt: 'p' }).multiSelect).toBe(false);
    expect(
      questionRequestSchema.safeParse({
        kind: 'question',
        prompt: 'p',
        placeholder: 'x'.repeat(400),
      }).success,
    ).toBe(true);
    expect(
      questionRequestSchema.safeParse({
        kind: 'question',
        prompt: 'p',
        placeholder: 'x'.repeat(401),
      }).success,
    ).toBe(false);
    expect(
      questionRequestSchema.safeParse({ kind: 'question', prompt: 'p', choices: [] }).success,
    ).toBe(false);
  });

  it('approval request defaults riskHint and needs at least one mode', () => {
    const req = {
      kind: 'approval',
      subject: { category: 'command', summary: 'run ls' },
      allowedModes: ['once'],
    };
    expect(approvalRequestSchema.parse(req).riskHint).toBe('medium');
    expect(approvalRequestSchema.safeParse({ ...req, allowedModes: [] }).success).toBe(false);
    expect(
      approvalRequestSchema.safeParse({ ...req, subject: { ...req.subject, category: 'shell' } })
        .success,
    ).toBe(false);
    expect(
      approvalRequestSchema.safeParse({
        ...req,
        subject: { ...req.subject, summary: 'x'.repeat(2001) },
      }).success,
    ).toBe(false);
  });
});

describe('termination, recovery, error and settlement', () => {
  const error = { code: 'internal', message: 'boom' };
  const at = '2025-01-02T03:04:05.678Z';

  it('provider run termination is a strict union on outcome', () => {
    expect(providerRunTerminationSchema.safeParse({ outcome: 'succeeded' }).success).toBe(true);
    expect(providerRunTerminationSchema.safeParse({ outcome: 'failed' }).success).toBe(false);
    expect(providerRunTerminationSchema.parse({ outcome: 'failed', error })).toEqual({
      outcome: 'failed',
      error: { ...error, retryable: false },
    });
    expect(
      providerRunTerminationSchema.safeParse({ outcome: 'interrupted', reason: 'r'.repeat(2000) })
        .success,
    ).toBe(true);
    expect(
      providerRunTerminationSchema.safeParse({ outcome: 'interrupted', reason: 'r'.repeat(2001) })
        .success,
    ).toBe(false);
    expect(providerRunTerminationSchema.safeParse({ outcome: 'succeeded', at }).success).toBe(
      false,
    );
  });

  it('run termination carries a timestamp', () => {
    expect(runTerminationSchema.safeParse({ outcome: 'succeeded', at }).success).toBe(true);
    expect(runTerminationSchema.safeParse({ outcome: 'succeeded' }).success).toBe(false);
    expect(
      runTerminationSchema.safeParse({ outcome: 'interrupted', at: 'yesterday' }).success,
    ).toBe(false);
  });

  it('agent error: 23 codes, bounds, strict', () => {
    expect(agentErrorSchema.safeParse({ code: 'nope', message: 'm' }).success).toBe(false);
    expect(agentErrorSchema.safeParse({ ...error, message: '' }).success).toBe(false);
    expect(agentErrorSchema.safeParse({ ...error, message: 'm'.repeat(2000) }).success).toBe(true);
    expect(agentErrorSchema.safeParse({ ...error, message: 'm'.repeat(2001) }).success).toBe(false);
    expect(agentErrorSchema.safeParse({ ...error, providerCode: 'p'.repeat(200) }).success).toBe(
      true,
    );
    expect(agentErrorSchema.safeParse({ ...error, providerCode: 'p'.repeat(201) }).success).toBe(
      false,
    );
    expect(agentErrorSchema.safeParse({ ...error, stack: 's' }).success).toBe(false);
  });

  it('recovery record requires JSON opaque data', () => {
    const rec = { providerId: 'demo', providerVersion: '1', wireVersion: '0.8', opaque: { a: 1 } };
    expect(providerRecoveryRecordSchema.safeParse(rec).success).toBe(true);
    expect(providerRecoveryRecordSchema.safeParse({ ...rec, opaque: null }).success).toBe(true);
    expect(providerRecoveryRecordSchema.safeParse({ ...rec, opaque: undefined }).success).toBe(
      false,
    );
    expect(providerRecoveryRecordSchema.safeParse({ ...rec, opaque: new Date() }).success).toBe(
      false,
    );
    expect(
      providerRecoveryRecordSchema.safeParse({ ...rec, providerId: 'x'.repeat(65) }).success,
    ).toBe(false);
  });

  it('settlement has a response exactly when responded', () => {
    const response = { kind: 'approval', decision: 'denied' };
    expect(
      interactionSettlementSchema.safeParse({ outcome: 'responded', settledAt: at, response })
        .success,
    ).toBe(true);
    expect(
      interactionSettlementSchema.safeParse({ outcome: 'responded', settledAt: at }).success,
    ).toBe(false);
    expect(
      interactionSettlementSchema.safeParse({ outcome: 'expired', settledAt: at, response })
        .success,
    ).toBe(false);
    expect(
      interactionSettlementSchema.safeParse({ outcome: 'withdrawn', settledAt: at }).success,
    ).toBe(true);
  });

  it('agent interaction: status matches settlement and kinds agree', () => {
    const interaction = {
      interactionId: 'int_1',
      sessionId: 'ses_1',
      turnId: 'trn_1',
      runId: 'run_1',
      status: 'pending',
      request: {
        kind: 'approval',
        subject: { category: 'other', summary: 's' },
        allowedModes: ['once'],
      },
      requestedAt: at,
    };
    const settled = {
      outcome: 'responded',
      settledAt: at,
      response: { kind: 'approval', decision: 'denied' },
    };
    expect(agentInteractionSchema.safeParse(interaction).success).toBe(true);
    expect(agentInteractionSchema.safeParse({ ...interaction, status: 'settled' }).success).toBe(
      false,
    );
    expect(
      agentInteractionSchema.safeParse({ ...interaction, status: 'settled', settlement: settled })
        .success,
    ).toBe(true);
    expect(agentInteractionSchema.safeParse({ ...interaction, settlement: settled }).success).toBe(
      false,
    );
    const wrongKind = { ...settled, response: { kind: 'question', answer: 'x' } };
    expect(
      agentInteractionSchema.safeParse({ ...interaction, status: 'settled', settlement: wrongKind })
        .success,
    ).toBe(false);
    expect(agentInteractionSchema.safeParse({ ...interaction, sessionId: 'run_1' }).success).toBe(
      false,
    );
  });
});
