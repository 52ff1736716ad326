/**
 * The JSON domain (docs/spi.md §2): capture of arbitrary input into cloned, deep-frozen JSON.
 *
 * Capture never throws: every reflection step may hit a hostile proxy, so the
 * whole walk runs under one try/catch and any throw becomes a fixed rejection.
 */

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type CaptureResult = { ok: true; value: JsonValue } | { ok: false; reason: string };

/** Fixed rejection reasons; never contain any part of the input. */
export const CAPTURE_REASONS = {
  cycle: 'value contains a cycle',
  nonFinite: 'value contains a non-finite number',
  unsupportedType: 'value contains a type that is not JSON',
  prototype: 'value contains an object whose prototype is not plain',
  accessor: 'value contains an accessor property',
  nonEnumerable: 'value contains a non-enumerable property',
  symbolKey: 'value contains a symbol-keyed property',
  arrayExtra: 'value contains an array with extra properties',
  arrayHole: 'value contains a sparse array',
  uninspectable: 'value could not be inspected',
} as const;

class CaptureRejection extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

function reject(reason: string): never {
  throw new CaptureRejection(reason);
}

interface WalkState {
  /** Objects on the current path: meeting one again is a cycle. */
  readonly active: Set<object>;
  /** Finished clones: a shared acyclic object is captured once and reused. */
  readonly done: Map<object, JsonValue>;
}

function walk(value: unknown, state: WalkState): JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : reject(CAPTURE_REASONS.nonFinite);
    case 'object':
      break;
    default:
      return reject(CAPTURE_REASONS.unsupportedType);
  }
  if (value === null) return null;
  const cached = state.done.get(value);
  if (cached !== undefined) return cached;
  if (state.active.has(value)) reject(CAPTURE_REASONS.cycle);
  state.active.add(value);
  const clone = Array.isArray(value) ? walkArray(value, state) : walkObject(value, state);
  state.active.delete(value);
  state.done.set(value, clone);
  return clone;
}

/** Reads one own data property, rejecting accessors and hidden members. */
function readOwnData(target: object, key: string): unknown {
  const desc = Reflect.getOwnPropertyDescriptor(target, key);
  if (desc === undefined) return reject(CAPTURE_REASONS.uninspectable);
  if (desc.get !== undefined || desc.set !== undefined || !('value' in desc)) {
    return reject(CAPTURE_REASONS.accessor);
  }
  if (desc.enumerable !== true) return reject(CAPTURE_REASONS.nonEnumerable);
  return desc.value;
}

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

function walkArray(source: readonly unknown[], state: WalkState): JsonValue[] {
  if (Reflect.getPrototypeOf(source) !== Array.prototype) reject(CAPTURE_REASONS.prototype);
  const lengthDesc = Reflect.getOwnPropertyDescriptor(source, 'length');
  const length: unknown = lengthDesc?.value;
  if (typeof length !== 'number') return reject(CAPTURE_REASONS.uninspectable);
  const keys = Reflect.ownKeys(source);
  let indexKeys = 0;
  for (const key of keys) {
    if (typeof key === 'symbol') reject(CAPTURE_REASONS.symbolKey);
    if (key === 'length') continue;
    // Only canonical indices below length count; "1.5", "NaN" or "01" are extra properties.
    if (!ARRAY_INDEX.test(key) || Number(key) >= length) reject(CAPTURE_REASONS.arrayExtra);
    indexKeys += 1;
  }
  if (indexKeys !== length) reject(CAPTURE_REASONS.arrayHole);
  const out: JsonValue[] = [];
  for (let i = 0; i < length; i += 1) {
    out.push(walk(readOwnData(source, String(i)), state));
  }
  return Object.freeze(out) as JsonValue[];
}

/**
 * A prototype that adds nothing an object's JSON could see: frozen, with no own member but
 * `constructor`, inheriting from `Object.prototype`. The SPI's own message deltas are instances
 * of such a class (the private brand they carry is no member), and so are those another copy of
 * the SPI package made; an instance's own data members are all there is to capture.
 */
function addsNothing(proto: object): boolean {
  if (!Object.isFrozen(proto) || Reflect.getPrototypeOf(proto) !== Object.prototype) return false;
  const keys = Reflect.ownKeys(proto);
  return keys.length === 1 && keys[0] === 'constructor';
}

function walkObject(source: object, state: WalkState): JsonObject {
  const proto = Reflect.getPrototypeOf(source);
  if (proto !== Object.prototype && proto !== null && !addsNothing(proto)) {
    reject(CAPTURE_REASONS.prototype);
  }
  // A null prototype means an own "__proto__" key is stored as plain data.
  const out = Object.create(null) as JsonObject;
  for (const key of Reflect.ownKeys(source)) {
    if (typeof key === 'symbol') return reject(CAPTURE_REASONS.symbolKey);
    out[key] = walk(readOwnData(source, key), state);
  }
  return Object.freeze(out);
}

/** Captures `value` into the JSON domain: a deep-frozen, null-prototype clone. */
export function captureJson(value: unknown): CaptureResult {
  try {
    return { ok: true, value: walk(value, { active: new Set(), done: new Map() }) };
  } catch (error) {
    if (error instanceof CaptureRejection) return { ok: false, reason: error.reason };
    // Hostile proxy traps, revoked proxies and stack exhaustion all land here.
    return { ok: false, reason: CAPTURE_REASONS.uninspectable };
  }
}

export function isJsonValue(value: unknown): value is JsonValue {
  return captureJson(value).ok;
}

export function isJsonObject(value: unknown): value is JsonObject {
  // Judged on the captured clone: Array.isArray on a revoked proxy throws, the clone cannot.
  const captured = captureJson(value);
  return (
    captured.ok &&
    typeof captured.value === 'object' &&
    captured.value !== null &&
    !Array.isArray(captured.value)
  );
}

function writeCanonical(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(writeCanonical).join(',')}]`;
  const keys = Object.keys(value).sort();
  const members = keys.map((key) => `${JSON.stringify(key)}:${writeCanonical(value[key] ?? null)}`);
  return `{${members.join(',')}}`;
}

/**
 * Serialises with object keys sorted by UTF-16 code units, so equal values give
 * equal strings. Throws a TypeError with a fixed message when not JSON-safe.
 */
export function canonicalJson(value: JsonValue): string {
  const captured = captureJson(value);
  if (!captured.ok) throw new TypeError(`canonicalJson: ${captured.reason}`);
  return writeCanonical(captured.value);
}
