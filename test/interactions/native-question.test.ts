import { describe, expect, it } from 'vitest';
import { questionSetRequestSchema } from '@relvo-labs/agent-provider';
import { buildNativeAnswers, translateUserInput } from '../../src/interactions/native-question.js';
import type { QuestionRefusalToken } from '../../src/interactions/native-question.js';
import { realQuestionParams, THREAD, TURN } from '../support/interaction-frames.js';

type NativeQuestion = Record<string, unknown>;

function question(id: string, patch: NativeQuestion = {}): NativeQuestion {
  return {
    id,
    header: '',
    question: `Question ${id}?`,
    isOther: false,
    isSecret: false,
    options: null,
    ...patch,
  };
}

function batch(
  questions: NativeQuestion[],
  patch: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    threadId: THREAD,
    turnId: TURN,
    itemId: 'call_rui_1',
    questions,
    isBlocking: true,
    autoResolutionMs: null,
    ...patch,
  };
}

function tokenOf(params: unknown): QuestionRefusalToken | 'ok' {
  const result = translateUserInput(params);
  return result.ok ? 'ok' : result.token;
}

describe('translateUserInput: mapping', () => {
  it('translates the measured Plan-mode request', () => {
    const result = translateUserInput(realQuestionParams());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.correlation).toEqual({ threadId: THREAD, turnId: TURN });
    expect(result.request).toEqual({
      kind: 'question_set',
      questions: [
        {
          key: 'q1',
          prompt: 'Which color?',
          header: 'Color',
          choices: [{ value: 'o1', label: 'Red', description: 'Loud.' }],
          multiSelect: false,
          allowFreeText: true,
          sensitive: false,
        },
      ],
    });
    expect(JSON.stringify(result.request)).not.toContain('color_choice');
    expect(result.plan.entries.map((e) => [e.key, e.nativeId, [...e.labels]])).toEqual([
      ['q1', 'color_choice', [['o1', 'Red']]],
    ]);
  });

  it('keys by position, omits empty header/description, derives allowFreeText and sensitive', () => {
    const result = translateUserInput(
      batch([
        question('free', { header: '', options: null, isSecret: true }),
        question('pick', {
          header: 'H',
          options: [
            { label: 'A', description: '' },
            { label: 'B', description: 'bee' },
          ],
        }),
        question('other', { options: [{ label: 'X', description: '' }], isOther: true }),
        question('emptyList', { options: [] }),
      ]),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [free, pick, other, emptyList] = result.request.questions;
    expect(free).toEqual({
      key: 'q1',
      prompt: 'Question free?',
      multiSelect: false,
      allowFreeText: true,
      sensitive: true,
    });
    expect(pick).toEqual({
      key: 'q2',
      prompt: 'Question pick?',
      header: 'H',
      choices: [
        { value: 'o1', label: 'A' },
        { value: 'o2', label: 'B', description: 'bee' },
      ],
      multiSelect: false,
      allowFreeText: false,
      sensitive: false,
    });
    expect(other?.allowFreeText).toBe(true);
    expect(other?.choices).toEqual([{ value: 'o1', label: 'X' }]);
    expect(emptyList).not.toHaveProperty('choices');
    expect(emptyList?.allowFreeText).toBe(true);
  });

  it('applies native defaults for isOther/isSecret', () => {
    const result = translateUserInput(batch([{ id: 'a', header: 'h', question: 'q?' }]));
    expect(result.ok && result.request.questions[0]).toMatchObject({
      allowFreeText: true,
      sensitive: false,
    });
  });
});

describe('translateUserInput: credentials', () => {
  it('are redacted from addresses in a prompt, a header and a choice description', () => {
    const result = translateUserInput(
      batch([
        question('a', {
          header: 'see https://ann:pw1@evil.example',
          question: 'Use evil.example/api?key=K1 ?',
          options: [{ label: 'yes', description: 'calls https://evil.example/x?token=T1' }],
        }),
      ]),
    );
    expect(result.ok && result.request.questions[0]).toMatchObject({
      header: 'see https://[redacted]@evil.example',
      prompt: 'Use evil.example/api?key=[redacted] ?',
      choices: [{ label: 'yes', description: 'calls https://evil.example/x?token=[redacted]' }],
    });
  });
});

describe('translateUserInput: refusal tokens', () => {
  it.each<[string, unknown]>([
    ['not an object', []],
    ['unknown top-level member', { ...realQuestionParams(), extra: true }],
    ['missing itemId', batch([question('a')], { itemId: undefined })],
    ['empty itemId', batch([question('a')], { itemId: '' })],
    ['empty threadId', batch([question('a')], { threadId: '' })],
    ['questions not an array', batch([question('a')], { questions: {} })],
    ['missing isBlocking', batch([question('a')], { isBlocking: undefined })],
    ['negative autoResolutionMs', batch([question('a')], { autoResolutionMs: -1 })],
    ['unknown question member', batch([question('a', { multiSelect: true })])],
    ['question without header', batch([{ id: 'a', question: 'q?' }])],
    ['empty option label', batch([question('a', { options: [{ label: '', description: '' }] })])],
    ['option without description', batch([question('a', { options: [{ label: 'A' }] })])],
    [
      'unknown option member',
      batch([question('a', { options: [{ label: 'A', description: '', value: 'a' }] })]),
    ],
  ])('malformed: %s', (_label, params) => {
    expect(tokenOf(params)).toBe('malformed');
  });

  it('not_blocking: the measured default-mode flag shape', () => {
    expect(tokenOf(batch([question('a')], { isBlocking: false }))).toBe('not_blocking');
  });

  it('auto_resolution_requested: any autoResolutionMs, even 0; absent and null are fine', () => {
    expect(tokenOf(batch([question('a')], { autoResolutionMs: 0 }))).toBe(
      'auto_resolution_requested',
    );
    expect(tokenOf(batch([question('a')], { autoResolutionMs: 5000 }))).toBe(
      'auto_resolution_requested',
    );
    const absent = batch([question('a')]);
    Reflect.deleteProperty(absent, 'autoResolutionMs');
    expect(tokenOf(absent)).toBe('ok');
  });

  it('question_count: 0 and 33 refused, 1 and 32 accepted', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => question(`id${i}`));
    expect(tokenOf(batch([]))).toBe('question_count');
    expect(tokenOf(batch(many(33)))).toBe('question_count');
    expect(tokenOf(batch(many(1)))).toBe('ok');
    expect(tokenOf(batch(many(32)))).toBe('ok');
  });

  it('duplicate_question_id and duplicate_option_label', () => {
    expect(tokenOf(batch([question('same'), question('same')]))).toBe('duplicate_question_id');
    const dup = [
      { label: 'Red', description: 'a' },
      { label: 'Red', description: 'b' },
    ];
    expect(tokenOf(batch([question('a', { options: dup })]))).toBe('duplicate_option_label');
    // The same label in two different questions is fine.
    const one = [{ label: 'Red', description: '' }];
    expect(tokenOf(batch([question('a', { options: one }), question('b', { options: one })]))).toBe(
      'ok',
    );
  });

  it('detail_too_large: a translated batch over 16,000 characters', () => {
    const long = 'p'.repeat(7000);
    expect(
      tokenOf(batch([question('a', { question: long }), question('b', { question: long })])),
    ).toBe('ok');
    expect(
      tokenOf(
        batch([
          question('a', { question: long }),
          question('b', { question: long }),
          question('c', { question: long }),
        ]),
      ),
    ).toBe('detail_too_large');
  });

  it.each<[string, NativeQuestion]>([
    ['empty prompt', question('a', { question: '' })],
    ['prompt over 8000', question('a', { question: 'p'.repeat(8001) })],
    ['header over 200', question('a', { header: 'h'.repeat(201) })],
    ['label over 400', question('a', { options: [{ label: 'l'.repeat(401), description: '' }] })],
    [
      'description over 2000',
      question('a', { options: [{ label: 'l', description: 'd'.repeat(2001) }] }),
    ],
    [
      '65 options',
      question('a', {
        options: Array.from({ length: 65 }, (_, i) => ({ label: `L${i}`, description: '' })),
      }),
    ],
  ])('neutral_bounds: %s', (_label, q) => {
    expect(tokenOf(batch([q]))).toBe('neutral_bounds');
  });

  it('accepts each neutral bound exactly', () => {
    const q = question('a', {
      question: 'p'.repeat(8000),
      header: 'h'.repeat(200),
      options: Array.from({ length: 64 }, (_, i) => ({
        label: `${i}`.padEnd(40, 'l'),
        description: '',
      })),
    });
    const result = translateUserInput(batch([q]));
    expect(result.ok).toBe(true);
    if (result.ok) expect(questionSetRequestSchema.safeParse(result.request).success).toBe(true);
  });
});

describe('buildNativeAnswers', () => {
  const params = batch([
    question('__proto__', {
      options: [
        { label: 'Yes', description: '' },
        { label: 'No', description: '' },
      ],
    }),
    question('constructor'),
    question('toString', { options: [{ label: 'A', description: '' }], isOther: true }),
  ]);

  it('keeps prototype-sensitive native ids as own data keys', () => {
    const result = translateUserInput(params);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const built = buildNativeAnswers(result.plan, {
      q1: { type: 'selection', values: ['o2'] },
      q2: { type: 'text', text: '  typed verbatim  ' },
      q3: { type: 'text', text: 'A' },
    });
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    const answers = built.response.answers;
    expect(Object.keys(answers)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getPrototypeOf(answers)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(answers, '__proto__')?.value).toEqual({
      answers: ['No'],
    });
    expect(JSON.parse(JSON.stringify(built.response))).toEqual(
      JSON.parse(
        '{"answers":{"__proto__":{"answers":["No"]},"constructor":{"answers":["  typed verbatim  "]},"toString":{"answers":["A"]}}}',
      ),
    );
    // A typed answer that equals a label stays text, sent verbatim.
    expect(Object.getOwnPropertyDescriptor(answers, 'toString')?.value).toEqual({ answers: ['A'] });
  });

  it('refuses a missing key or an unknown value', () => {
    const result = translateUserInput(params);
    if (!result.ok) throw new Error('expected a translation');
    expect(buildNativeAnswers(result.plan, { q1: { type: 'selection', values: ['o1'] } })).toEqual({
      ok: false,
      reason: 'missing_answer',
    });
    expect(
      buildNativeAnswers(result.plan, {
        q1: { type: 'selection', values: ['o9'] },
        q2: { type: 'text', text: 't' },
        q3: { type: 'text', text: 't' },
      }),
    ).toEqual({ ok: false, reason: 'unknown_value' });
  });
});
