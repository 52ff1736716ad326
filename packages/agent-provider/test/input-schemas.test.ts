import { describe, expect, it } from 'vitest';
import {
  approvalRequestSchema,
  captureJson,
  providerEventInputSchema,
  turnInputSchema,
} from '../src/index.js';
import {
  PROVIDER_EMITTABLE_EVENT_TYPES,
  providerEventPayloadSchema,
} from '../src/schemas/events.js';
import { questionRequestSchema } from '../src/schemas/interaction.js';

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
