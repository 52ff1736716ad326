/**
 * Identity of a class that survives two copies of its package (the ESM and the CommonJS build
 * loaded side by side, or two installs): `instanceof` compares one copy's class object, while a
 * key from the global symbol registry (`Symbol.for`) is the same in every copy. A brand alone
 * proves nothing — anyone can set it — so each reader also checks the fields it relies on, read
 * from properties fixed at construction so that what was checked cannot change afterwards.
 */

/** The brand's value: a later incompatible shape gets a new number, not a silent misreading. */
const BRAND_VERSION = 1;

/** The guard that decides `instanceof` of a branded class: it must read the brand, never throw. */
export type Recogniser = (value: unknown) => boolean;

/** The identity of one class, the same in every copy of the package that defines it. */
export interface ClassBrand {
  /** The registered key (`Symbol.for('<package>/<ClassName>')`). */
  readonly key: symbol;
  /**
   * Marks a class (call it from its static block): the brand goes on the prototype, fixed and not
   * enumerable, and `instanceof` of the class itself answers `recognise` — the same reading of
   * the brand as the package's guard — while a subclass keeps the ordinary prototype check.
   */
  mark(constructor: abstract new (...args: never[]) => object, recognise: Recogniser): void;
  /**
   * Whether `value` carries the brand and passes `fieldsValid` (the checks of the fields the
   * reader relies on). Never throws: a throwing getter or trap reads as not recognised.
   */
  recognises(value: unknown, fieldsValid: (branded: object) => boolean): boolean;
}

export function classBrand(pkg: string, className: string): ClassBrand {
  const key = Symbol.for(`${pkg}/${className}`);
  return Object.freeze({
    key,
    mark(constructor: abstract new (...args: never[]) => object, recognise: Recogniser): void {
      Object.defineProperty(constructor.prototype, key, {
        value: BRAND_VERSION,
        enumerable: false,
        writable: false,
        configurable: false,
      });
      Object.defineProperty(constructor, Symbol.hasInstance, {
        value(this: unknown, value: unknown): boolean {
          return this === constructor
            ? recognise(value)
            : Function.prototype[Symbol.hasInstance].call(this, value);
        },
        enumerable: false,
        writable: false,
        configurable: false,
      });
    },
    recognises(value: unknown, fieldsValid: (branded: object) => boolean): boolean {
      if ((typeof value !== 'object' && typeof value !== 'function') || value === null) {
        return false;
      }
      try {
        return (value as Record<symbol, unknown>)[key] === BRAND_VERSION && fieldsValid(value);
      } catch {
        return false;
      }
    },
  });
}

/** Defines an own field that can be neither reassigned nor redefined: a check of it stays true. */
export function fixField(target: object, name: string, value: unknown): void {
  Object.defineProperty(target, name, {
    value,
    enumerable: true,
    writable: false,
    configurable: false,
  });
}

/**
 * The value of a field defined by `fixField`, or undefined when the field is missing, a getter,
 * or still changeable. A proxy cannot lie here: for a non-configurable, non-writable property
 * the language makes its `get` trap answer the target's value. May throw (a hostile trap).
 */
export function fixedField(value: object, name: string): unknown {
  const field = Object.getOwnPropertyDescriptor(value, name);
  if (field === undefined || !('value' in field) || field.writable || field.configurable) {
    return undefined;
  }
  return field.value;
}
