/**
 * The runtime's own flat payloads (state changes, a run start, a settlement without an error)
 * are judged member by member instead of by the whole payload union: that road must accept
 * nothing `eventPayloadSchema` refuses, and give the same value, frozen.
 */
import { runStateSchema, sessionStateSchema, turnStateSchema } from '@relvo-labs/agent-provider';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FLAT_TYPES, flatPayload } from '../src/session/flat-payloads.js';
import { flatRoadAgrees, payloadVerdict } from './full-road.js';

const state = fc.constantFrom(
  ...runStateSchema.options,
  ...turnStateSchema.options,
  ...sessionStateSchema.options,
  'done',
  '',
);
const id = fc.oneof(
  { arbitrary: fc.constantFrom('trn_a1', 'trn_B-2_c'), weight: 6 },
  { arbitrary: fc.constantFrom('trn_', 'run_a1', 'trn_a b', `trn_${'x'.repeat(121)}`), weight: 1 },
  { arbitrary: fc.string(), weight: 1 },
);
const name = fc.oneof(
  { arbitrary: fc.constantFrom('alpha', 'codex'), weight: 6 },
  { arbitrary: fc.constantFrom('', 'x'.repeat(65)), weight: 1 },
  { arbitrary: fc.string(), weight: 1 },
);
const member = fc.oneof(
  { arbitrary: state, weight: 3 },
  { arbitrary: id, weight: 2 },
  { arbitrary: name, weight: 1 },
  { arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constant(null)), weight: 1 },
);

// one in eight: common enough to be tried hundreds of times, rare enough to leave most cases valid
const rarely = fc.constantFrom(false, false, false, false, false, false, false, true);

/** A payload of one of the flat types, or of one near them, many of them subtly wrong. */
const flatLike = fc
  .record({
    type: fc.constantFrom(...FLAT_TYPES, 'run.finished', 'turn.started'),
    from: fc.nat(),
    to: fc.nat(),
    turnId: id,
    attempt: fc.oneof(fc.integer({ min: -1, max: 3 }), fc.constant(1.5), fc.constant('1')),
    profile: name,
    providerId: name,
    settled: fc.nat(),
    drop: fc.option(fc.constantFrom('from', 'to', 'turnId', 'attempt', 'state'), {
      nil: undefined,
    }),
    extra: fc.option(fc.tuple(fc.constantFrom('error', 'runId', '__proto__', 'x'), member), {
      nil: undefined,
      freq: 4,
    }),
    accessor: rarely,
    hidden: rarely,
    proxy: rarely,
  })
  .map((r) => {
    const payload: Record<string, unknown> = { type: r.type };
    const states = r.type.startsWith('run.')
      ? runStateSchema.options
      : r.type.startsWith('turn.')
        ? turnStateSchema.options
        : sessionStateSchema.options;
    // mostly one of the type's own states; now and then another type's, or none at all
    const pick = (n: number): string =>
      n % 9 === 0
        ? 'done'
        : n % 9 === 1
          ? (runStateSchema.options[n % 4] as string)
          : (states[n % states.length] as string);
    const from = pick(r.from);
    const to = pick(r.to);
    const members: Record<string, Record<string, unknown>> = {
      'run.state_changed': { from, to },
      'session.state_changed': { from, to },
      'turn.state_changed': { turnId: r.turnId, from, to },
      'run.started': {
        turnId: r.turnId,
        attempt: r.attempt,
        profile: r.profile,
        providerId: r.providerId,
      },
      'turn.settled': { turnId: r.turnId, state: pick(r.settled) },
    };
    for (const [key, value] of Object.entries(members[r.type] ?? { turnId: r.turnId })) {
      if (key === r.drop) continue;
      if (r.accessor && key !== 'type') {
        Object.defineProperty(payload, key, { get: () => value, enumerable: true });
        r.accessor = false;
      } else payload[key] = value;
    }
    if (r.extra !== undefined) {
      Object.defineProperty(payload, r.extra[0], { value: r.extra[1], enumerable: true });
    }
    if (r.hidden) Object.defineProperty(payload, 'seq', { value: 1, enumerable: false });
    return r.proxy ? new Proxy(payload, {}) : payload;
  });

describe("the runtime's own flat payloads", () => {
  it('the member-by-member road accepts only what the payload schema accepts, as a frozen copy', () => {
    const taken = flatRoadAgrees(flatLike, Object.isFrozen, 3000);
    // the property says something only if the road was taken often enough; about 100 of 3000
    // cases are, so 40 is six standard deviations away and never a matter of the seed
    expect(taken).toBeGreaterThan(40);
  });

  it('every flat type takes the road when valid (a schema member without a check would not)', () => {
    expect(FLAT_TYPES).toEqual([
      'run.state_changed',
      'turn.state_changed',
      'session.state_changed',
      'run.started',
      'turn.settled',
    ]);
    const valid = [
      { type: 'run.state_changed', from: 'starting', to: 'running' },
      { type: 'turn.state_changed', turnId: 'trn_1', from: 'accepted', to: 'running' },
      { type: 'session.state_changed', from: 'opening', to: 'ready' },
      { type: 'run.started', turnId: 'trn_1', attempt: 1, profile: 'p', providerId: 'codex' },
      { type: 'turn.settled', turnId: 'trn_1', state: 'completed' },
    ];
    for (const payload of valid) expect(flatPayload(payload)).toEqual(payloadVerdict(payload));
  });
});
