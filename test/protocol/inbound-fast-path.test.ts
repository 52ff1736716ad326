/**
 * The hand-checked decode of text deltas against the schema's: for recorded deltas and for
 * generated params (inherited members, empty and non-string values, extra members, arrays), the
 * fast path and the schema give the same member, so the shortcut never widens what is accepted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBySchema, decodeNotification } from '../../src/protocol/inbound.js';

const DELTA = 'item/agentMessage/delta';
const KEYS = ['threadId', 'turnId', 'itemId', 'delta'] as const;

const value = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constant(''),
  fc.integer(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);

/** Params with each key present, missing, or inherited from a prototype. */
const params = fc
  .record({
    own: fc.dictionary(fc.constantFrom(...KEYS, 'extra'), value),
    inherited: fc.dictionary(fc.constantFrom(...KEYS), value),
  })
  .map(({ own, inherited }) => Object.assign(Object.create(inherited) as object, own));

/** Mostly well-formed: each member a non-empty string unless the draw says otherwise. */
const nearlyValid = fc.record({
  threadId: fc.oneof(fc.string({ minLength: 1, maxLength: 3 }), value),
  turnId: fc.oneof(fc.string({ minLength: 1, maxLength: 3 }), value),
  itemId: fc.oneof(fc.string({ minLength: 1, maxLength: 3 }), value),
  delta: fc.oneof(fc.string({ minLength: 1, maxLength: 3 }), value),
});

describe('the text-delta fast path', () => {
  it('agrees with the schema on a well-formed delta and keeps no extra member', () => {
    const p = { threadId: 't', turnId: 'u', itemId: 'i', delta: 'hé', extra: 1 };
    const fast = decodeNotification(DELTA, p);
    expect(fast).toEqual({ method: DELTA, threadId: 't', turnId: 'u', itemId: 'i', delta: 'hé' });
    expect(fast).toEqual(decodeBySchema(DELTA, p));
  });

  it('leaves what it cannot prove to the schema: an empty delta is unknown, not a delta', () => {
    const p = { threadId: 't', turnId: 'u', itemId: 'i', delta: '' };
    expect(decodeNotification(DELTA, p).method).toBe('unknown');
    expect(decodeNotification(DELTA, p)).toEqual(decodeBySchema(DELTA, p));
  });

  it('gives the same member as the schema for any params', () => {
    fc.assert(
      fc.property(fc.oneof(params, nearlyValid, value), (p) => {
        expect(decodeNotification(DELTA, p)).toEqual(decodeBySchema(DELTA, p));
      }),
      { numRuns: Number(process.env['FUZZ_RUNS'] ?? 2000) },
    );
  });
});
