/**
 * A message delta made by the SPI (docs/spi.md §10.3). A turn carries deltas by the hundred,
 * and a runtime judges every emission it receives. A delta made here with a text within the
 * schema's bounds carries that verdict on itself: it is an instance of a class only this module
 * has, whose private field is the brand (ADR-0072) no caller can forge or copy and a proxy never
 * has. Its one own member is the frozen `payload`; it is frozen, and serialises, clones and
 * spreads as the plain `{ payload }` it stands for. Nothing is remembered here: the verdict
 * travels with the object, whichever delta it is and whenever it arrives; a delta without it is
 * judged by what the runtime reads.
 */
import { messageDeltaPayloadSchema, type ProviderEventInput } from './schemas/events.js';

// the schema's own bounds, so the two cannot drift apart
const MIN = messageDeltaPayloadSchema.shape.text.minLength ?? 0;
const MAX = messageDeltaPayloadSchema.shape.text.maxLength ?? 0;

const soundText = (text: unknown): text is string =>
  typeof text === 'string' && text.length >= MIN && text.length <= MAX;

type DeltaPayload = Extract<ProviderEventInput['payload'], { type: 'run.message_delta' }>;

/**
 * A sound delta. Constructed at its final shape (branding an object made elsewhere costs the
 * adapter path a few per cent of its frames a second, docs/performance.md). Its constructor is
 * reachable as any delta's `constructor`, so it checks the text itself: whoever calls it only
 * ever makes what `messageDeltaEvent` would.
 */
class SoundDelta {
  readonly #sound = true;
  readonly payload: DeltaPayload;

  constructor(text: string) {
    if (!soundText(text)) throw new TypeError('a message delta text within the schema bounds');
    this.payload = Object.freeze({ type: 'run.message_delta', text });
    Object.freeze(this);
  }

  static has(value: object): boolean {
    return #sound in value;
  }
}
// what every delta inherits cannot be added to (a toJSON there would change every delta)
Object.freeze(SoundDelta.prototype);
Object.freeze(SoundDelta);

/**
 * `{ payload: { type: 'run.message_delta', text } }`, frozen: a branded `SoundDelta` when the
 * text is sound, otherwise a plain object (the runtime then judges it, and refuses it).
 */
export function messageDeltaEvent(text: string): ProviderEventInput {
  if (soundText(text)) return new SoundDelta(text);
  return Object.freeze({ payload: Object.freeze({ type: 'run.message_delta' as const, text }) });
}

/**
 * The payload of `input` when this copy of the SPI made `input` with a text within bounds: a
 * frozen `{ type: 'run.message_delta', text }` of data members. Otherwise undefined, having read
 * nothing of `input` (a brand check runs no trap or accessor).
 */
export function soundDeltaPayload(input: unknown): ProviderEventInput['payload'] | undefined {
  if (typeof input !== 'object' || input === null || !SoundDelta.has(input)) return undefined;
  return (input as ProviderEventInput).payload;
}
