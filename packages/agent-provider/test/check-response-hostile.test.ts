import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkResponseAgainstRequest } from '../src/index.js';
import { check, everyRequest, requests, validSetAnswers } from './response-requests.js';

const { multi, single } = requests;

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
    let rejections = 0;
    fc.assert(
      fc.property(fc.constantFrom(...everyRequest), response, (request, res) => {
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
