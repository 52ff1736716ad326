import {
  agentError,
  captureJson,
  messageDeltaPayloadSchema,
  providerEventInputSchema,
  providerRunTerminationSchema,
  soundDeltaPayload,
  type AgentError,
  type ProviderEventPayload,
  type ProviderRunTermination,
} from '@relvo-labs/agent-provider';
import { types } from 'node:util';
import type { PayloadOf } from '../envelope.js';

const { isProxy } = types;

/*
 * Everything a provider hands over passes here first (docs/spi.md §10.3): JSON capture (cycles,
 * accessors, hostile proxies → refusal), then the strict SPI schema. The result is a fresh,
 * frozen value the provider can no longer mutate. Nothing here throws.
 *
 * A message delta, the one event a turn carries by the hundred, may take a shorter road: a
 * plain two-member object is copied field by field and its text checked against the zod
 * schema's own bounds (adr/0035). Anything else, or anything unusual about a delta, takes the
 * full road, so the fast road only ever accepts a subset of what zod accepts.
 */

export type Intake<T> = { ok: true; value: T } | { ok: false; reason: string };

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** The payload types the log records exactly as intake admitted them (nothing to add or flatten). */
const RECORDED_AS_IS: ReadonlySet<string> = new Set([
  'run.message_delta',
  'run.tool_activity',
  'run.usage',
  'diagnostic',
]);

/**
 * Where intake says, for the emission it just judged, whether the log may hold the admitted
 * payload as it is. One per emitter (a run, a session's sink), written by each verdict and read
 * right after it: the fact travels with the call, never found later by identity.
 */
export interface Verdict {
  asIs: boolean;
}

const DELTA_MIN = messageDeltaPayloadSchema.shape.text.minLength ?? 1;
const DELTA_MAX = messageDeltaPayloadSchema.shape.text.maxLength ?? 0;

/**
 * A plain object (not a proxy, prototype `Object.prototype`) with no symbol key and, when
 * `count` is given, exactly `count` own keys. Nothing here can run the caller's code: no trap,
 * no accessor is ever called.
 */
export function plainWithKeys(value: unknown, count?: number): value is object {
  return (
    typeof value === 'object' &&
    value !== null &&
    !isProxy(value) &&
    Object.getPrototypeOf(value) === Object.prototype &&
    // two calls, yet cheaper than Reflect.ownKeys, which showed in the profile
    (count === undefined || Object.getOwnPropertyNames(value).length === count) &&
    Object.getOwnPropertySymbols(value).length === 0
  );
}

/** The value of an own, enumerable data property, or undefined (accessors are never called). */
export function ownData(target: object, key: string): unknown {
  const desc = Object.getOwnPropertyDescriptor(target, key);
  return desc !== undefined && desc.enumerable === true && 'value' in desc
    ? (desc.value as unknown)
    : undefined;
}

/**
 * `{ payload: { type: 'run.message_delta', text } }` copied and frozen, or undefined (then the
 * full road judges it, and a hostile value gets the same refusal as ever). Counting the keys
 * and finding `payload`, `type` and `text` among them as data members means there is no other.
 */
function fastDelta(input: unknown): ProviderEventPayload | undefined {
  // the SPI's own delta carries its verdict (a brand only the SPI can place): nothing to read
  const made = soundDeltaPayload(input);
  if (made !== undefined) return made;
  if (!plainWithKeys(input, 1)) return undefined;
  const payload = ownData(input, 'payload');
  if (!plainWithKeys(payload, 2) || ownData(payload, 'type') !== 'run.message_delta') {
    return undefined;
  }
  const text = ownData(payload, 'text');
  if (typeof text !== 'string' || text.length < DELTA_MIN || text.length > DELTA_MAX) {
    return undefined;
  }
  // frozen already (the SPI's messageDeltaEvent makes it so): its two checked members cannot
  // change, so it is kept rather than copied
  if (Object.isFrozen(payload)) return payload as ProviderEventPayload;
  return Object.freeze({ type: 'run.message_delta', text });
}

function firstIssuePath(issues: readonly { path: readonly PropertyKey[] }[]): string {
  const path = issues[0]?.path ?? [];
  return path.length === 0 ? 'input' : path.map((p) => String(p)).join('.');
}

export function intakeProviderEvent(input: unknown): Intake<ProviderEventPayload> {
  try {
    const fast = fastDelta(input);
    if (fast !== undefined) return { ok: true, value: fast };
    return fullRoad(input);
  } catch {
    return { ok: false, reason: 'capture_threw' };
  }
}

/**
 * What a run records for a provider emission: the admitted payload, or the diagnostic of its
 * refusal. The same verdicts as intakeProviderEvent, without a result object per delta;
 * `verdict.asIs` says whether the log may hold the payload as it is (admitted, of a type
 * recorded unchanged), so the log need not judge it again.
 */
export function recordedEmission(input: unknown, verdict: Verdict): ProviderEventPayload {
  verdict.asIs = false;
  try {
    const fast = fastDelta(input);
    if (fast !== undefined) {
      verdict.asIs = true;
      return fast;
    }
  } catch {
    return contractDiagnostic('capture_threw');
  }
  const intake = fullRoad(input);
  if (!intake.ok) return contractDiagnostic(intake.reason);
  verdict.asIs = RECORDED_AS_IS.has(intake.value.type);
  return intake.value;
}

function fullRoad(input: unknown): Intake<ProviderEventPayload> {
  try {
    const captured = captureJson(input);
    if (!captured.ok) return { ok: false, reason: `not_json:${captured.reason}` };
    const parsed = providerEventInputSchema.safeParse(captured.value);
    if (!parsed.success)
      return { ok: false, reason: `schema:${firstIssuePath(parsed.error.issues)}` };
    return { ok: true, value: deepFreeze(parsed.data.payload) };
  } catch {
    return { ok: false, reason: 'capture_threw' };
  }
}

const SUCCEEDED: ProviderRunTermination = Object.freeze({ outcome: 'succeeded' });
const INTERRUPTED: ProviderRunTermination = Object.freeze({ outcome: 'interrupted' });

/** `{ outcome: 'succeeded' }` or `{ outcome: 'interrupted' }` as plain data: no need for the schema. */
function fastTermination(value: unknown): ProviderRunTermination | undefined {
  if (!plainWithKeys(value, 1)) return undefined;
  const outcome = ownData(value, 'outcome');
  return outcome === 'succeeded' ? SUCCEEDED : outcome === 'interrupted' ? INTERRUPTED : undefined;
}

export function intakeTermination(value: unknown): ProviderRunTermination {
  try {
    const fast = fastTermination(value);
    if (fast !== undefined) return fast;
    const captured = captureJson(value);
    const parsed = captured.ok ? providerRunTerminationSchema.safeParse(captured.value) : undefined;
    if (parsed?.success === true) return deepFreeze(parsed.data);
  } catch {
    // falls through to the typed failure below
  }
  return {
    outcome: 'failed',
    error: agentError(
      'provider_contract_violation',
      'the provider settled the run with an invalid termination',
    ),
  };
}

/** The diagnostic recorded in place of an emission the runtime refused. */
export function contractDiagnostic(reason: string): PayloadOf<'diagnostic'> {
  return {
    type: 'diagnostic',
    level: 'warning',
    message: 'provider contract violation: an emission was refused',
    detail: { code: 'provider_contract_violation', reason: reason.slice(0, 200) },
  };
}

export function failedWith(error: AgentError): ProviderRunTermination {
  return { outcome: 'failed', error };
}
