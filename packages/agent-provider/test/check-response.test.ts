import { describe, expect, it } from 'vitest';
import { check, requests, setResponse, validSetAnswers } from './response-requests.js';

const { approval, freeText, multi, set, single } = requests;

describe('kinds', () => {
  it('names the expected and received kinds when they differ', () => {
    expect(check(approval, { kind: 'question', answer: 'x' })).toBe(
      'expected a approval response but received a question response',
    );
    expect(check(set, { kind: 'approval', decision: 'denied' })).toContain('question_set');
    expect(check(single, { kind: 'question_set', answers: {} })).toMatch(/question .*question_set/);
  });

  it('does not echo an unknown received kind', () => {
    const reason = check(single, { kind: 'SECRET-KIND' });
    expect(reason).toBe('expected a question response but received an unrecognised kind');
  });

  it('rejects non-object responses without throwing', () => {
    for (const response of [null, undefined, 'question', 42, []])
      expect(check(single, response)).toBeTypeOf('string');
  });
});

describe('question without choices', () => {
  it('requires a string answer', () => {
    expect(check(freeText, { kind: 'question', answer: 'Ada' })).toBeUndefined();
    expect(check(freeText, { kind: 'question', answer: ['Ada'] })).toBe(
      'this question expects a free-text answer',
    );
    expect(check(freeText, { kind: 'question', answer: 7 })).toBe(
      'this question expects a free-text answer',
    );
  });

  it('still enforces the schema bounds last', () => {
    expect(check(freeText, { kind: 'question', answer: 'x'.repeat(16_001) })).toBe(
      'the response does not match the response schema',
    );
    expect(check(freeText, { kind: 'question', answer: 'a', extra: true })).toBe(
      'the response does not match the response schema',
    );
  });
});

describe('question with choices', () => {
  it('treats a string as a selection of that one value', () => {
    expect(check(single, { kind: 'question', answer: 'red' })).toBeUndefined();
    expect(check(single, { kind: 'question', answer: 'Red' })).toBe(
      '1 selected value(s) are not among the choices',
    );
  });

  it('rejects more than one value without multiSelect', () => {
    expect(check(single, { kind: 'question', answer: ['red', 'blue'] })).toBe(
      'more than one value was selected for a single-select question',
    );
    expect(check(multi, { kind: 'question', answer: ['red', 'blue'] })).toBeUndefined();
  });

  it('counts values outside the choices', () => {
    expect(check(multi, { kind: 'question', answer: ['red', 'pink', 'teal'] })).toBe(
      '2 selected value(s) are not among the choices',
    );
    expect(check(single, { kind: 'question', answer: ['nope'] })).toBe(
      '1 selected value(s) are not among the choices',
    );
  });
});

describe('question_set', () => {
  it('accepts a complete valid answer set', () => {
    expect(check(set, setResponse(validSetAnswers))).toBeUndefined();
  });

  it('1. reports missing keys by count first', () => {
    const { name: _n, colour: _c, ...rest } = validSetAnswers;
    expect(check(set, setResponse({ ...rest, extra: { type: 'text', text: 'x' } }))).toBe(
      '2 of 4 question(s) are unanswered',
    );
    expect(check(set, setResponse({}))).toBe('4 of 4 question(s) are unanswered');
  });

  it('2. reports extra keys by count, never by name', () => {
    const reason = check(
      set,
      setResponse({ ...validSetAnswers, 'SECRET-a': { type: 'text', text: 'x' }, b: 1 }),
    );
    expect(reason).toBe('2 answer key(s) do not match any question');
  });

  it('2. counts an own __proto__ key as an extra key', () => {
    const answers = JSON.parse(`{"__proto__":{"type":"text","text":"x"}}`) as Record<
      string,
      unknown
    >;
    Object.assign(answers, validSetAnswers);
    expect(check(set, setResponse(answers))).toBe('1 answer key(s) do not match any question');
  });

  // each answer patch breaks one rule of step 3; request order decides which is reported
  it.each([
    [
      'rejects free text where choices exist and allowFreeText is false',
      { colour: { type: 'text', text: 'red' } },
      'question 2 does not accept free text',
    ],
    [
      'a text answer coinciding with a choice value stays text (allowed with allowFreeText)',
      { other: { type: 'text', text: 'red' } },
      undefined,
    ],
    [
      'rejects a selection where the question has no choices',
      { name: { type: 'selection', values: ['red'] } },
      'question 1 offers no choices to select',
    ],
    [
      'rejects more than one value without multiSelect',
      { colour: { type: 'selection', values: ['red', 'blue'] } },
      'question 2 accepts only one value',
    ],
    [
      'rejects a repeated value',
      { colours: { type: 'selection', values: ['red', 'red'] } },
      'the answer to question 3 repeats a value',
    ],
    [
      'counts values outside the choices',
      { colours: { type: 'selection', values: ['red', 'x', 'y', 'z'] } },
      '3 selected value(s) for question 3 are not among the choices',
    ],
    [
      'checks questions in request order',
      { name: { type: 'selection', values: ['red'] }, colour: { type: 'text', text: 't' } },
      'question 1 offers no choices to select',
    ],
  ])('3. %s', (_, patch, reason) => {
    expect(check(set, setResponse({ ...validSetAnswers, ...patch }))).toBe(reason);
  });

  it('rejects malformed answers and answer containers', () => {
    expect(check(set, setResponse({ ...validSetAnswers, name: 'Ada' }))).toBe(
      'the answer to question 1 is neither text nor a selection',
    );
    expect(check(set, { kind: 'question_set', answers: [] })).toBe('answers must be an object');
    expect(check(set, setResponse({ ...validSetAnswers, name: { type: 'text', text: '' } }))).toBe(
      'the response does not match the response schema',
    );
  });
});

describe('approval', () => {
  it('accepts an approval with an allowed mode and a denial without mode', () => {
    expect(
      check(approval, { kind: 'approval', decision: 'approved', mode: 'session' }),
    ).toBeUndefined();
    expect(check(approval, { kind: 'approval', decision: 'denied', reason: 'no' })).toBeUndefined();
  });

  it('rejects approved without mode', () => {
    expect(check(approval, { kind: 'approval', decision: 'approved' })).toBe(
      'an approval must carry a mode',
    );
  });

  it('rejects a mode outside allowedModes without naming it', () => {
    expect(check(approval, { kind: 'approval', decision: 'approved', mode: 'persistent' })).toBe(
      'the approval mode is not among the allowed modes',
    );
  });

  it('rejects a denial carrying a mode', () => {
    expect(check(approval, { kind: 'approval', decision: 'denied', mode: 'once' })).toBe(
      'a denial must not carry a mode',
    );
  });

  it('rejects an unknown decision', () => {
    expect(check(approval, { kind: 'approval', decision: 'maybe' })).toBe(
      'decision must be approved or denied',
    );
  });
});
