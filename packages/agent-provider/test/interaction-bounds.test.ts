import { describe, expect, it } from 'vitest';
import {
  interactionRequestSchema,
  questionSetRequestSchema,
  type QuestionChoice,
} from '../src/index.js';
import {
  INTERACTION_BOUNDS,
  questionAnswerSchema,
  questionResponseSchema,
  questionSetResponseSchema,
} from '../src/schemas/interaction.js';

const s = (n: number): string => 'x'.repeat(n);

function choices(n: number, patch: Partial<QuestionChoice> = {}): QuestionChoice[] {
  return Array.from({ length: n }, (_, i) => ({ value: `v${i}`, label: `Choice ${i}`, ...patch }));
}

function item(patch: Record<string, unknown> = {}): Record<string, unknown> {
  return { key: 'q1', prompt: 'Which one?', ...patch };
}

function setWith(questions: unknown[]): unknown {
  return { kind: 'question_set', questions };
}

function itemsOk(n: number): unknown[] {
  return Array.from({ length: n }, (_, i) => item({ key: `k${i}` }));
}

const accepts = (value: unknown): boolean => questionSetRequestSchema.safeParse(value).success;

describe('question_set request bounds (at n and n+1)', () => {
  const cases: [string, (n: number) => unknown, number, number?][] = [
    ['questions', (n) => setWith(itemsOk(n)), INTERACTION_BOUNDS.questions, 1],
    ['key length', (n) => setWith([item({ key: s(n) })]), INTERACTION_BOUNDS.questionKey, 1],
    ['prompt', (n) => setWith([item({ prompt: s(n) })]), INTERACTION_BOUNDS.prompt, 1],
    ['header', (n) => setWith([item({ header: s(n) })]), INTERACTION_BOUNDS.header, 1],
    ['choices', (n) => setWith([item({ choices: choices(n) })]), INTERACTION_BOUNDS.choices, 1],
    [
      'choice value',
      (n) => setWith([item({ choices: choices(1, { value: s(n) }) })]),
      INTERACTION_BOUNDS.choiceValue,
      1,
    ],
    [
      'choice label',
      (n) => setWith([item({ choices: choices(1, { label: s(n) }) })]),
      INTERACTION_BOUNDS.choiceLabel,
      1,
    ],
    [
      'choice description',
      (n) => setWith([item({ choices: choices(1, { description: s(n) }) })]),
      INTERACTION_BOUNDS.choiceDescription,
      0,
    ],
  ];

  it.each(cases)('%s accepts the bound and rejects one more', (_name, build, max, min) => {
    expect(accepts(build(max))).toBe(true);
    expect(accepts(build(max + 1))).toBe(false);
    if (min !== undefined) {
      expect(accepts(build(min))).toBe(true);
      if (min > 0) expect(accepts(build(min - 1))).toBe(false);
    }
  });

  it('pins the published numbers', () => {
    expect(INTERACTION_BOUNDS).toMatchObject({
      questions: 32,
      questionKey: 64,
      prompt: 8000,
      header: 200,
      choices: 64,
      choiceValue: 200,
      choiceLabel: 400,
      choiceDescription: 2000,
      textAnswer: 16_000,
    });
  });

  it.each(['a', 'A9', 'a.b-c_d', '0key', `k${s(63)}`.slice(0, 64)])(
    'key %s matches the pattern',
    (key) => {
      expect(accepts(setWith([item({ key })]))).toBe(true);
    },
  );

  it.each(['.a', '-a', '_a', 'a b', 'a/b', 'é', '__proto__', 'a:b'])(
    'key %j is rejected',
    (key) => {
      expect(accepts(setWith([item({ key })]))).toBe(false);
    },
  );

  it('rejects duplicate keys through the refinement, also via the request union', () => {
    const dup = setWith([item({ key: 'same' }), item({ key: 'same' })]);
    expect(accepts(dup)).toBe(false);
    expect(interactionRequestSchema.safeParse(dup).success).toBe(false);
    expect(accepts(setWith([item({ key: 'same' }), item({ key: 'Same' })]))).toBe(true);
  });

  it('applies item defaults and is strict', () => {
    const parsed = questionSetRequestSchema.parse(setWith([item()]));
    expect(parsed.questions[0]).toEqual({
      key: 'q1',
      prompt: 'Which one?',
      multiSelect: false,
      allowFreeText: false,
      sensitive: false,
    });
    expect(accepts(setWith([item({ extra: 1 })]))).toBe(false);
    expect(accepts({ ...(setWith([item()]) as object), extra: 1 })).toBe(false);
  });
});

describe('answer bounds', () => {
  const text = (n: number) => questionAnswerSchema.safeParse({ type: 'text', text: s(n) }).success;
  const values = (n: number, len = 1) =>
    questionAnswerSchema.safeParse({
      type: 'selection',
      values: Array.from({ length: n }, (_, i) => `${i}`.padEnd(len, 'x')),
    }).success;

  it('text answer is 1..16000', () => {
    expect(text(INTERACTION_BOUNDS.textAnswer)).toBe(true);
    expect(text(INTERACTION_BOUNDS.textAnswer + 1)).toBe(false);
    expect(text(1)).toBe(true);
    expect(text(0)).toBe(false);
  });

  it('selection is 1..64 values of 1..200', () => {
    expect(values(64)).toBe(true);
    expect(values(65)).toBe(false);
    expect(values(0)).toBe(false);
    expect(values(1, 200)).toBe(true);
    expect(values(1, 201)).toBe(false);
  });

  it('single question free-text answer is at most 16000 and a list needs 1..64 values', () => {
    const ok = (answer: unknown) =>
      questionResponseSchema.safeParse({ kind: 'question', answer }).success;
    expect(ok(s(16_000))).toBe(true);
    expect(ok(s(16_001))).toBe(false);
    expect(ok([])).toBe(false);
    expect(ok(Array.from({ length: 64 }, (_, i) => `v${i}`))).toBe(true);
    expect(ok(Array.from({ length: 65 }, (_, i) => `v${i}`))).toBe(false);
  });

  it('text and selection stay distinct variants', () => {
    expect(questionAnswerSchema.safeParse({ type: 'text', values: ['a'] }).success).toBe(false);
    expect(questionAnswerSchema.safeParse({ type: 'selection', text: 'a' }).success).toBe(false);
    expect(questionAnswerSchema.safeParse({ type: 'other', text: 'a' }).success).toBe(false);
  });
});

describe('question_set response answer keys', () => {
  const answer = { type: 'text', text: 'hi' } as const;

  it('rejects an own __proto__ key instead of losing it', () => {
    const input = JSON.parse(
      '{"kind":"question_set","answers":{"__proto__":{"type":"text","text":"hi"}}}',
    ) as unknown;
    const result = questionSetResponseSchema.safeParse(input);
    expect(result.success).toBe(false);
    const nullProto = Object.create(null) as Record<string, unknown>;
    nullProto.__proto__ = answer;
    expect(
      questionSetResponseSchema.safeParse({ kind: 'question_set', answers: nullProto }).success,
    ).toBe(false);
  });

  it('rejects symbol keys and pattern violations, accepts valid keys', () => {
    expect(
      questionSetResponseSchema.safeParse({
        kind: 'question_set',
        answers: { [Symbol('k')]: answer },
      }).success,
    ).toBe(false);
    expect(
      questionSetResponseSchema.safeParse({ kind: 'question_set', answers: { 'bad key': answer } })
        .success,
    ).toBe(false);
    const ok = questionSetResponseSchema.parse({
      kind: 'question_set',
      answers: { a: answer, 'b.c': answer },
    });
    expect(Object.keys(ok.answers)).toEqual(['a', 'b.c']);
  });

  it('does not name the offending key in the issue', () => {
    const secret = 'SECRET-KEY-zz';
    const result = questionSetResponseSchema.safeParse({
      kind: 'question_set',
      answers: { [` ${secret}`]: answer },
    });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).not.toContain(secret);
  });
});
