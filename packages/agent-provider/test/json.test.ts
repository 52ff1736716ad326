import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  agentErrorSchema,
  canonicalJson,
  captureJson,
  jsonObjectSchema,
  type JsonObject,
} from '../src/index.js';
import { CAPTURE_REASONS, isJsonObject, isJsonValue } from '../src/json.js';

class Box {
  readonly n = 1;
}

function rejected(value: unknown): string | undefined {
  const result = captureJson(value);
  return result.ok ? undefined : result.reason;
}

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

describe('captureJson', () => {
  it('accepts JSON values and returns a deep-frozen clone', () => {
    const input = { a: 1, b: ['x', true, null, { c: -0.5 }], d: { e: {} } };
    const result = captureJson(input);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toEqual(input);
    expect(result.value).not.toBe(input);
    expect(isDeepFrozen(result.value)).toBe(true);
    expect(Object.getPrototypeOf(result.value)).toBeNull();
    input.b.push('later');
    (input.d as Record<string, unknown>).e = 'mutated';
    expect(result.value).toEqual({ a: 1, b: ['x', true, null, { c: -0.5 }], d: { e: {} } });
  });

  it('round-trips arbitrary JSON (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = captureJson(value);
        expect(result.ok).toBe(true);
        if (result.ok) expect(JSON.stringify(result.value)).toBe(JSON.stringify(value));
      }),
    );
  });

  it('rejects cycles but accepts shared references', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(rejected(cyclic)).toBe(CAPTURE_REASONS.cycle);
    const arr: unknown[] = [];
    arr.push({ back: arr });
    expect(rejected(arr)).toBe(CAPTURE_REASONS.cycle);
    const shared = { s: [1, 2] };
    const result = captureJson({ x: shared, y: shared, z: [shared, shared] });
    expect(result.ok).toBe(true);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    'rejects non-finite %s',
    (n) => {
      expect(rejected({ n })).toBe(CAPTURE_REASONS.nonFinite);
      expect(rejected([n])).toBe(CAPTURE_REASONS.nonFinite);
    },
  );

  it.each([
    ['undefined member', { a: undefined }],
    ['bigint', { a: 1n }],
    ['function', { a: () => 1 }],
    ['symbol value', [Symbol('s')]],
    ['top-level undefined', undefined],
  ])('rejects %s', (_name, value) => {
    expect(rejected(value)).toBe(CAPTURE_REASONS.unsupportedType);
  });

  it.each([
    ['Date', new Date(0)],
    ['Map', new Map()],
    ['class instance', new Box()],
    ['object with custom prototype', Object.create({ inherited: 1 }) as object],
    ['array subclass', new (class MyArray extends Array {})()],
    ['boxed string', Object('s') as object],
  ])('rejects non-plain prototype: %s', (_name, value) => {
    expect(rejected({ v: value })).toBe(CAPTURE_REASONS.prototype);
  });

  it('takes an instance of a frozen class that adds no member (as the SPI makes its deltas), and no other', () => {
    class Frozen {
      readonly #brand = true;
      readonly v = 1;
      static has(o: object): boolean {
        return #brand in o;
      }
    }
    Object.freeze(Frozen.prototype);
    expect(captureJson({ a: new Frozen() })).toEqual({ ok: true, value: { a: { v: 1 } } });
    // not frozen (a toJSON could be added later), a method, a getter, a deeper chain: refused
    class Open {
      readonly v = 1;
    }
    class WithMethod {
      readonly v = 1;
      toJSON(): string {
        return 'other';
      }
    }
    class WithGetter {
      get v(): number {
        return 1;
      }
    }
    class Deeper extends Frozen {}
    for (const C of [WithMethod, WithGetter, Deeper]) Object.freeze(C.prototype);
    for (const value of [new Open(), new WithMethod(), new WithGetter(), new Deeper()]) {
      expect(rejected({ v: value })).toBe(CAPTURE_REASONS.prototype);
    }
  });

  it('rejects accessors, non-enumerable and symbol-keyed properties', () => {
    const getter = Object.defineProperty({}, 'a', { get: () => 1, enumerable: true });
    expect(rejected(getter)).toBe(CAPTURE_REASONS.accessor);
    const setter = Object.defineProperty({}, 'a', { set: () => undefined, enumerable: true });
    expect(rejected(setter)).toBe(CAPTURE_REASONS.accessor);
    const hidden = Object.defineProperty({}, 'a', { value: 1, enumerable: false });
    expect(rejected(hidden)).toBe(CAPTURE_REASONS.nonEnumerable);
    expect(rejected({ [Symbol('k')]: 1 })).toBe(CAPTURE_REASONS.symbolKey);
    const arrGetter = [1];
    Object.defineProperty(arrGetter, '0', { get: () => 2, enumerable: true });
    expect(rejected(arrGetter)).toBe(CAPTURE_REASONS.accessor);
  });

  it('rejects arrays with extra properties or holes', () => {
    const extra = Object.assign([1, 2], { note: 'x' });
    expect(rejected(extra)).toBe(CAPTURE_REASONS.arrayExtra);
    const sym = Object.assign([1], { [Symbol('s')]: 1 });
    expect(rejected(sym)).toBe(CAPTURE_REASONS.symbolKey);
    // eslint-disable-next-line no-sparse-arrays
    expect(rejected([1, , 3])).toBe(CAPTURE_REASONS.arrayHole);
    expect(rejected(new Array(3))).toBe(CAPTURE_REASONS.arrayHole);
    // Numeric-looking but non-index keys are extra properties, not holes.
    expect(rejected(Object.assign([1, 2], { '1.5': 3 }))).toBe(CAPTURE_REASONS.arrayExtra);
    expect(rejected(Object.assign([1, 2], { NaN: 3 }))).toBe(CAPTURE_REASONS.arrayExtra);
  });

  it('keeps an own __proto__ key as data on a null-prototype object', () => {
    const parsed = JSON.parse('{"__proto__":{"polluted":true},"ok":1}') as unknown;
    const result = captureJson(parsed);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const value = result.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBeNull();
    expect(Object.keys(value)).toEqual(['__proto__', 'ok']);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(canonicalJson(result.value)).toBe('{"__proto__":{"polluted":true},"ok":1}');
  });

  it('turns hostile proxies into rejections, never throws', () => {
    const throwing = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('SECRET-TRAP');
        },
      },
    );
    expect(rejected(throwing)).toBe(CAPTURE_REASONS.uninspectable);
    const protoTrap = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error('x');
        },
      },
    );
    expect(rejected({ nested: [protoTrap] })).toBe(CAPTURE_REASONS.uninspectable);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(rejected(proxy)).toBe(CAPTURE_REASONS.uninspectable);
    const lying = new Proxy(
      { a: 1 },
      {
        getOwnPropertyDescriptor() {
          throw new Error('x');
        },
      },
    );
    expect(rejected(lying)).toBe(CAPTURE_REASONS.uninspectable);
  });

  it('captures a well-behaved proxy by value, not by reference', () => {
    const proxy = new Proxy({ a: 1 }, {});
    const result = captureJson(proxy);
    expect(result).toEqual({ ok: true, value: { a: 1 } });
  });

  it('rejects (does not crash on) very deep nesting beyond the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    expect(rejected(deep)).toBe(CAPTURE_REASONS.uninspectable);
  });

  it('never puts input text into a reason (property)', () => {
    const reasons = new Set<string>(Object.values(CAPTURE_REASONS));
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withMap: true, withSet: true, withDate: true }),
        (value) => {
          const result = captureJson(value);
          if (!result.ok) expect(reasons.has(result.reason)).toBe(true);
        },
      ),
    );
  });
});

describe('isJsonValue / isJsonObject', () => {
  it('guards values', () => {
    expect(isJsonValue({ a: [1, 'b'] })).toBe(true);
    expect(isJsonValue(Number.NaN)).toBe(false);
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject([])).toBe(false);
    expect(isJsonObject(null)).toBe(false);
    expect(isJsonObject('s')).toBe(false);
  });

  it('never throws on a hostile proxy (docs/spi.md §2): a revoked proxy is simply not JSON', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(isJsonValue(proxy)).toBe(false);
    expect(isJsonObject(proxy)).toBe(false);
    expect(jsonObjectSchema.safeParse(proxy).success).toBe(false);
    expect(
      agentErrorSchema.safeParse({ code: 'internal', message: 'x', details: proxy }).success,
    ).toBe(false);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and is stable under key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()).map((d) => d as unknown as JsonObject),
        (dict) => {
          const reversed = Object.fromEntries(Object.entries(dict).reverse());
          expect(canonicalJson(reversed)).toBe(canonicalJson(dict));
          expect(JSON.parse(canonicalJson(dict))).toEqual(JSON.parse(JSON.stringify(dict)));
        },
      ),
    );
  });

  it('throws a fixed TypeError for non-JSON input', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.me = cyclic;
    expect(() => canonicalJson(cyclic as never)).toThrow(TypeError);
    expect(() => canonicalJson(cyclic as never)).toThrow(CAPTURE_REASONS.cycle);
  });
});
