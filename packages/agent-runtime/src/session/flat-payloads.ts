import type { z } from 'zod';
import { runTerminationSchema } from '@relvo-labs/agent-provider';
import {
  runFinishedPayloadSchema,
  runStartedPayloadSchema,
  runStateChangedPayloadSchema,
  sessionStateChangedPayloadSchema,
  turnSettledPayloadSchema,
  turnStartedPayloadSchema,
  turnStateChangedPayloadSchema,
  type EventPayload,
} from '../envelope.js';
import { ownData, plainWithKeys } from './intake.js';
import { isJudgedTurnInput } from './turn-input.js';

/*
 * The runtime's own payloads whose members are all strings and numbers (a state change, a run
 * start, a settlement without an error), and the two a turn writes with a nested member (its
 * start, holding the input turn-input.ts judged and froze, and a run's end without an error),
 * are judged member by member here, with the schemas' own member schemas, instead of capturing
 * and parsing the whole union: a turn writes several, and the full road cost tens of µs per turn
 * (adr/0035). Anything else returns undefined and takes the full road; the fast road accepts a
 * subset of what `eventPayloadSchema` accepts (property tests: test/flat-payloads.test.ts,
 * test/turn-path.test.ts).
 */

type Check = (value: unknown) => boolean;
/** The member as the log keeps it (frozen), or REFUSED: a nested member is copied, not kept. */
type Copy = (value: unknown) => unknown;
const REFUSED = Symbol('refused');

/** A member schema's verdict, remembered for the last value it accepted (a turn repeats them). */
function remembered(schema: z.ZodType): Check {
  let last: unknown;
  return (value) => {
    if (value === last && typeof value === 'string') return true;
    if (!schema.safeParse(value).success) return false;
    last = value;
    return true;
  };
}

function oneOf(options: readonly string[]): Check {
  const set = new Set<unknown>(options);
  return (value) => set.has(value);
}

type Members = Readonly<Record<string, Check | { readonly copy: Copy }>>;

/**
 * The checks, when they cover every member but `type` and `error` (an error is left to the full
 * road); otherwise undefined and the type always takes the full road: a member added to the
 * schema without a check here never slips through unchecked.
 */
function membersOf(
  shape: Readonly<Record<string, z.ZodType>>,
  checks: Members,
): Members | undefined {
  const required = Object.keys(shape).filter((key) => key !== 'type' && key !== 'error');
  return required.every((key) => checks[key] !== undefined) &&
    Object.keys(checks).length === required.length
    ? checks
    : undefined;
}

const runShape = runStateChangedPayloadSchema.shape;
const turnShape = turnStateChangedPayloadSchema.shape;
const sessionShape = sessionStateChangedPayloadSchema.shape;
const startedShape = runStartedPayloadSchema.shape;
const settledShape = turnSettledPayloadSchema.shape;
const startShape = turnStartedPayloadSchema.shape;
const finishedShape = runFinishedPayloadSchema.shape;
const turnId = remembered(turnShape.turnId);

const [succeeded, , interrupted] = runTerminationSchema.options;
const at = remembered(succeeded.shape.at);
const reason = remembered(interrupted.shape.reason);

/** A run's end without an error (`succeeded`, or `interrupted` with or without a reason). */
function termination(value: unknown): unknown {
  if (!plainWithKeys(value)) return REFUSED;
  const outcome = ownData(value, 'outcome');
  if ((outcome !== 'succeeded' && outcome !== 'interrupted') || !at(ownData(value, 'at')))
    return REFUSED;
  const count = Object.getOwnPropertyNames(value).length;
  if (count === 2) return Object.freeze({ outcome, at: ownData(value, 'at') });
  const why = ownData(value, 'reason');
  return outcome === 'interrupted' && count === 3 && why !== undefined && reason(why)
    ? Object.freeze({ outcome, at: ownData(value, 'at'), reason: why })
    : REFUSED;
}

const FLAT: ReadonlyMap<string, Members | undefined> = new Map([
  [
    'run.state_changed',
    membersOf(runShape, { from: oneOf(runShape.from.options), to: oneOf(runShape.to.options) }),
  ],
  [
    'turn.state_changed',
    membersOf(turnShape, {
      turnId,
      from: oneOf(turnShape.from.options),
      to: oneOf(turnShape.to.options),
    }),
  ],
  [
    'session.state_changed',
    membersOf(sessionShape, {
      from: oneOf(sessionShape.from.options),
      to: oneOf(sessionShape.to.options),
    }),
  ],
  [
    'run.started',
    membersOf(startedShape, {
      turnId,
      attempt: (v) => startedShape.attempt.safeParse(v).success,
      profile: remembered(startedShape.profile),
      providerId: remembered(startedShape.providerId),
    }),
  ],
  ['turn.settled', membersOf(settledShape, { turnId, state: oneOf(settledShape.state.options) })],
]);

/** A turn's start and a run's end: one nested member each, judged (or built) before. */
const NESTED: ReadonlyMap<string, Members | undefined> = new Map([
  [
    'turn.started',
    membersOf(startShape, {
      turnId,
      profile: remembered(startShape.profile),
      providerId: remembered(startShape.providerId),
      input: isJudgedTurnInput,
    }),
  ],
  ['run.finished', membersOf(finishedShape, { termination: { copy: termination } })],
]);

const taken = (road: ReadonlyMap<string, Members | undefined>): readonly string[] =>
  [...road].filter(([, m]) => m !== undefined).map(([t]) => t);

/** The payload types the fast road takes (every one, unless a schema gained an unchecked member). */
export const FLAT_TYPES: readonly string[] = taken(FLAT);
/** The same for the payloads with a nested member. */
export const NESTED_TYPES: readonly string[] = taken(NESTED);

/** A frozen copy of `payload` when it is one of the flat payloads above and valid; else undefined. */
export function flatPayload(payload: unknown): EventPayload | undefined {
  try {
    if (!plainWithKeys(payload)) return undefined;
    const type = ownData(payload, 'type');
    const members = typeof type === 'string' ? (FLAT.get(type) ?? NESTED.get(type)) : undefined;
    if (members === undefined) return undefined;
    const keys = Object.keys(members);
    if (Object.getOwnPropertyNames(payload).length !== keys.length + 1) return undefined;
    const copy: Record<string, unknown> = { type };
    for (const key of keys) {
      const value = ownData(payload, key);
      const check = members[key] as Check | { readonly copy: Copy };
      if (typeof check === 'function') {
        if (!check(value)) return undefined;
        copy[key] = value;
      } else {
        const kept = check.copy(value);
        if (kept === REFUSED) return undefined;
        copy[key] = kept;
      }
    }
    return Object.freeze(copy) as EventPayload;
  } catch {
    return undefined;
  }
}
