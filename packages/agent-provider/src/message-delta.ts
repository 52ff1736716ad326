/**
 * A message delta made by the SPI (docs/spi.md §10.3). A turn carries deltas by the hundred,
 * and a runtime judges every emission it receives. A delta made here with a text within the
 * schema's bounds carries that verdict on itself: a private brand (ADR-0072), which only this
 * module can put on an object, no caller can forge or copy, and a proxy never has. The event and
 * its payload are frozen plain data, so a runtime that finds the brand may keep the payload as
 * it is. Nothing is remembered here: the verdict travels with the object, whichever delta it is
 * and whenever it arrives; a delta without it is judged by what the runtime reads.
 */
import { messageDeltaPayloadSchema, type ProviderEventInput } from './schemas/events.js';

// the schema's own bounds, so the two cannot drift apart
const MIN = messageDeltaPayloadSchema.shape.text.minLength ?? 0;
const MAX = messageDeltaPayloadSchema.shape.text.maxLength ?? 0;

/** A base whose constructor hands back the object it is given, so a subclass can brand it. */
// eslint-disable-next-line @typescript-eslint/no-extraneous-class -- a constructor is its whole job
class Target {
  constructor(target: object) {
    return target;
  }
}

/** The brand: a private field, placed only by `brand` (before the object is frozen). */
class SoundDelta extends Target {
  readonly #sound = true;

  static brand(event: object): void {
    new SoundDelta(event);
  }

  static has(value: object): boolean {
    return #sound in value;
  }
}

/** `{ payload: { type: 'run.message_delta', text } }`, frozen; branded when the text is sound. */
export function messageDeltaEvent(text: string): ProviderEventInput {
  const event = { payload: Object.freeze({ type: 'run.message_delta' as const, text }) };
  if (typeof text === 'string' && text.length >= MIN && text.length <= MAX) SoundDelta.brand(event);
  return Object.freeze(event);
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
