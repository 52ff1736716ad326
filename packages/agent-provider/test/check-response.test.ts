import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  approvalRequestSchema,
  checkResponseAgainstRequest,
  questionSetRequestSchema,
  type InteractionRequest,
  type InteractionResponse,
} from '../src/index.js';
import { questionRequestSchema } from '../src/schemas/interaction.js';

// Responses arrive unparsed in practice; the check must cope with any shape.
const check = (request: InteractionRequest, response: unknown) =>
  checkResponseAgainstRequest(request, response as InteractionResponse);

const choices = [
  { value: 'red', label: 'Red' },
  { value: 'blue', label: 'Blue' },
  { value: 'green', label: 'Green' },
];

const freeText = questionRequestSchema.parse({ kind: 'question', prompt: 'Name?' });
const single = questionRequestSchema.parse({ kind: 'question', prompt: 'Colour?', choices });
const multi = questionRequestSchema.parse({
  kind: 'question',
  prompt: 'Colours?',
  choices,
  multiSelect: true,
});
const approval = approvalRequestSchema.parse({
  kind: 'approval',
  subject: { category: 'command', summary: 'run tests' },
  allowedModes: ['once', 'session'],
});
const set = questionSetRequestSchema.parse({
  kind: 'question_set',
  questions: [
    { key: 'name', prompt: 'Name?' },
    { key: 'colour', prompt: 'Colour?', choices },
    { key: 'colours', prompt: 'Colours?', choices, multiSelect: true },
    { key: 'other', prompt: 'Other?', choices, allowFreeText: true },
  ],
});
const validSetAnswers = {
  name: { type: 'text', text: 'Ada' },
  colour: { type: 'selection', values: ['red'] },
  colours: { type: 'selection', values: ['red', 'blue'] },
  other: { type: 'text', text: 'purple' },
};
const setResponse = (answers: Record<string, unknown>) => ({ kind: 'question_set', answers });

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

  it('3. rejects free text where choices exist and allowFreeText is false', () => {
    expect(
      check(set, setResponse({ ...validSetAnswers, colour: { type: 'text', text: 'red' } })),
    ).toBe('question 2 does not accept free text');
  });

  it('3. a text answer coinciding with a choice value stays text (allowed with allowFreeText)', () => {
    expect(
      check(set, setResponse({ ...validSetAnswers, other: { type: 'text', text: 'red' } })),
    ).toBeUndefined();
  });

  it('3. rejects a selection where the question has no choices', () => {
    expect(
      check(set, setResponse({ ...validSetAnswers, name: { type: 'selection', values: ['red'] } })),
    ).toBe('question 1 offers no choices to select');
  });

  it('3. rejects more than one value without multiSelect', () => {
    expect(
      check(
        set,
        setResponse({ ...validSetAnswers, colour: { type: 'selection', values: ['red', 'blue'] } }),
      ),
    ).toBe('question 2 accepts only one value');
  });

  it('3. rejects a repeated value', () => {
    expect(
      check(
        set,
        setResponse({ ...validSetAnswers, colours: { type: 'selection', values: ['red', 'red'] } }),
      ),
    ).toBe('the answer to question 3 repeats a value');
  });

  it('3. counts values outside the choices', () => {
    expect(
      check(
        set,
        setResponse({
          ...validSetAnswers,
          colours: { type: 'selection', values: ['red', 'x', 'y', 'z'] },
        }),
      ),
    ).toBe('3 selected value(s) for question 3 are not among the choices');
  });

  it('3. checks questions in request order', () => {
    const answers = {
      ...validSetAnswers,
      name: { type: 'selection', values: ['red'] },
      colour: { type: 'text', text: 't' },
    };
    expect(check(set, setResponse(answers))).toBe('question 1 offers no choices to select');
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

describe('never throws', () => {
  it('survives hostile proxies and getters', () => {
    const hostile = new Proxy(
      {},
      {
        getOwnPropertyDescriptor() {
          throw new Error('SECRET');
        },
      },
    );
    expect(check(single, hostile)).toBe('the response could not be checked');
    const getter = Object.defineProperty({ kind: 'question' }, 'answer', {
      get: () => {
        throw new Error('x');
      },
      enumerable: true,
    });
    expect(check(single, getter)).toBeTypeOf('string');
    expect(
      checkResponseAgainstRequest(hostile as never, { kind: 'question', answer: 'x' }),
    ).toBeTypeOf('string');
  });

  it('rejects an invalid request instead of trusting it', () => {
    const bad = {
      kind: 'question_set',
      questions: [
        { key: 'a', prompt: 'p' },
        { key: 'a', prompt: 'p' },
      ],
    };
    expect(
      check(bad as never, { kind: 'question_set', answers: { a: { type: 'text', text: 'x' } } }),
    ).toBe('the request is not a valid interaction request');
    expect(check({ kind: 'poll' } as never, { kind: 'poll' })).toBe(
      'the request kind is not recognised',
    );
  });
});

describe('non-echo canary', () => {
  const CANARY = 'CANARY7f3';
  // Any string containing the canary; it may appear as a value, key, kind, mode or reason.
  const tainted = fc
    .tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }))
    .map(([a, b]) => `${a}${CANARY}${b}`);
  const maybeTainted = fc.oneof(
    tainted,
    fc.constantFrom('red', 'blue', 'once', 'session', 'name', 'colour', 'approved'),
  );

  const answer = fc.oneof(
    fc.record({ type: fc.constantFrom('text', 'selection', CANARY), text: maybeTainted }),
    fc.record({
      type: fc.constantFrom('selection', 'text'),
      values: fc.array(maybeTainted, { maxLength: 4 }),
    }),
    maybeTainted,
  );

  const response = fc.oneof(
    fc.record({
      kind: fc.constantFrom('question', CANARY),
      answer: fc.oneof(maybeTainted, fc.array(maybeTainted)),
    }),
    fc.record({
      kind: fc.constant('question_set'),
      answers: fc.dictionary(maybeTainted, answer, { maxKeys: 6 }),
    }),
    fc.record({
      kind: fc.constant('question_set'),
      answers: fc
        .tuple(fc.dictionary(tainted, answer, { maxKeys: 3 }), fc.constant(validSetAnswers))
        .map(([extra, valid]) => ({ ...valid, ...extra })),
    }),
    fc.record(
      {
        kind: fc.constantFrom('approval', CANARY),
        decision: fc.oneof(fc.constantFrom('approved', 'denied'), tainted),
        mode: maybeTainted,
        reason: maybeTainted,
      },
      { requiredKeys: ['kind'] },
    ),
  );

  it('no reason ever contains a caller-supplied value or key', () => {
    const requests: InteractionRequest[] = [freeText, single, multi, set, approval];
    let rejections = 0;
    fc.assert(
      fc.property(fc.constantFrom(...requests), response, (request, res) => {
        const reason = check(request, res);
        if (reason !== undefined) {
          rejections += 1;
          expect(reason).not.toContain(CANARY);
          expect(reason.length).toBeLessThanOrEqual(120);
        }
      }),
      { numRuns: 2000 },
    );
    expect(rejections).toBeGreaterThan(500);
  });

  it('a rejected single-question answer that equals a secret is not echoed', () => {
    const secret = `sk-${CANARY}-0001`;
    for (const request of [single, multi]) {
      for (const answer of [secret, [secret], ['red', secret]]) {
        const reason = check(request, { kind: 'question', answer });
        expect(reason).toBeDefined();
        expect(reason).not.toContain(CANARY);
      }
    }
  });
});
