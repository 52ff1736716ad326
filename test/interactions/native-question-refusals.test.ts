/** The question-batch translator's refusals: each token, and each neutral bound met exactly. */
import { describe, expect, it } from 'vitest';
import { questionSetRequestSchema } from '@relvo-labs/agent-provider';
import { translateUserInput } from '../../src/interactions/native-question.js';
import { realQuestionParams } from '../support/interaction-frames.js';
import {
  nativeQuestion as question,
  questionBatch as batch,
  refusalTokenOf,
  type NativeQuestion,
} from '../support/native-translations.js';

const tokenOf = refusalTokenOf(translateUserInput);

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
