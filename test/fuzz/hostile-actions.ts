/**
 * What a fuzz case does: the generated sequence of hostile peer frames and host calls that
 * `runCase` (hostile-session.ts) drives a session through.
 */
import fc from 'fast-check';
import { frameTemplates } from './templates.js';

export const CANARY = 'sk-CANARYCANARYCANARY9876';
export const REQUEST_TIMEOUT_MS = 1_000;

export type Mutation = 'none' | 'wrongType' | 'dropKey' | 'extraKey' | 'canary';
export type Addressee = 'live' | 'any' | 'stray' | 'foreign';

export type Action =
  | { readonly t: 'start'; readonly ref: number; readonly throwingSink: boolean }
  | {
      /** A coherent recorded turn: startRun, its turn/start answered, then the scenario's frames. */
      readonly t: 'scenario';
      readonly scenario: number;
      readonly cut: number;
      readonly mutateEvery: number;
      readonly leaf: number;
      readonly value: unknown;
      readonly mutation: Mutation;
    }
  | {
      readonly t: 'replyTurnStart';
      readonly which: number;
      readonly kind: 'ok' | 'error' | 'wrongId' | 'garbage' | 'twice';
    }
  | {
      readonly t: 'frame';
      readonly template: number;
      readonly to: Addressee;
      readonly which: number;
      readonly mutation: Mutation;
      readonly leaf: number;
      readonly value: unknown;
    }
  | { readonly t: 'duplicate'; readonly back: number }
  | {
      readonly t: 'request';
      readonly template: number;
      readonly to: Addressee;
      readonly which: number;
      readonly stringId: boolean;
      readonly mutation: Mutation;
      readonly leaf: number;
      readonly value: unknown;
    }
  | {
      readonly t: 'bytes';
      readonly kind: 'truncated' | 'oversized' | 'garbage' | 'scalar';
      readonly seed: number;
      readonly junk: Uint8Array;
    }
  | { readonly t: 'interrupt'; readonly which: number }
  | { readonly t: 'replyInterrupt'; readonly which: number; readonly kind: 'ok' | 'error' }
  | {
      readonly t: 'respond';
      readonly which: number;
      readonly answer: number;
      readonly bogus: boolean;
    }
  | { readonly t: 'dispose' }
  | { readonly t: 'end'; readonly fail: boolean }
  | { readonly t: 'tick'; readonly ms: number };

const addressee = fc.constantFrom<Addressee>('live', 'live', 'live', 'any', 'stray', 'foreign');
const mutation = fc.constantFrom<Mutation>(
  'none',
  'none',
  'none',
  'wrongType',
  'dropKey',
  'extraKey',
  'canary',
);
const oddValue = fc.oneof(
  fc.constantFrom<unknown>(null, 0, -1, 1e308, '', true, [], {}, CANARY, { $ref: CANARY }),
  fc.jsonValue({ maxDepth: 2 }),
);

export function actionArbitrary(templateCount: number): fc.Arbitrary<Action> {
  const template = fc.nat({ max: templateCount - 1 });
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        t: fc.constant('scenario' as const),
        scenario: fc.nat(),
        cut: fc.nat({ max: 40 }),
        mutateEvery: fc.integer({ min: 2, max: 40 }),
        leaf: fc.nat(),
        value: oddValue,
        mutation,
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        t: fc.constant('start' as const),
        ref: fc.nat({ max: 4 }),
        throwingSink: fc.boolean(),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        t: fc.constant('replyTurnStart' as const),
        which: fc.nat({ max: 6 }),
        kind: fc.constantFrom('ok', 'ok', 'ok', 'error', 'wrongId', 'garbage', 'twice'),
      }),
    },
    {
      weight: 10,
      arbitrary: fc.record({
        t: fc.constant('frame' as const),
        template,
        to: addressee,
        which: fc.nat({ max: 6 }),
        mutation,
        leaf: fc.nat(),
        value: oddValue,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ t: fc.constant('duplicate' as const), back: fc.nat({ max: 5 }) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        t: fc.constant('request' as const),
        template,
        to: addressee,
        which: fc.nat({ max: 6 }),
        stringId: fc.boolean(),
        mutation,
        leaf: fc.nat(),
        value: oddValue,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        t: fc.constant('bytes' as const),
        kind: fc.constantFrom('truncated', 'oversized', 'garbage', 'scalar'),
        seed: fc.nat(),
        junk: fc.uint8Array({ maxLength: 64 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ t: fc.constant('interrupt' as const), which: fc.nat({ max: 6 }) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        t: fc.constant('replyInterrupt' as const),
        which: fc.nat({ max: 6 }),
        kind: fc.constantFrom('ok', 'error'),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        t: fc.constant('respond' as const),
        which: fc.nat({ max: 6 }),
        answer: fc.nat({ max: 5 }),
        bogus: fc.boolean(),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ t: 'dispose' as const }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('end' as const), fail: fc.boolean() }) },
    {
      weight: 1,
      arbitrary: fc.record({
        t: fc.constant('tick' as const),
        ms: fc.integer({ min: 1, max: 3 * REQUEST_TIMEOUT_MS }),
      }),
    },
  );
}

export function caseArbitrary(): fc.Arbitrary<Action[]> {
  return fc.array(actionArbitrary(frameTemplates().length), { minLength: 1, maxLength: 40 });
}
