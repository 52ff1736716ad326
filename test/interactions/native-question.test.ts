import { describe, expect, it } from 'vitest';
import { buildNativeAnswers, translateUserInput } from '../../src/interactions/native-question.js';
import { realQuestionParams } from '../support/interaction-frames.js';
import {
  nativeQuestion as question,
  onMeasuredTurn,
  questionBatch as batch,
} from '../support/native-translations.js';

describe('translateUserInput: mapping', () => {
  it('translates the measured Plan-mode request', () => {
    const result = onMeasuredTurn(translateUserInput(realQuestionParams()));
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
