/**
 * A message delta made by the SPI itself (docs/spi.md §10.3). A turn carries deltas by the
 * hundred, and a runtime judges every emission it receives; a delta made here was judged when
 * it was made — its text is a string within the payload schema's bounds, and the event and its
 * payload are frozen plain data — so a runtime that receives this very object needs no second
 * look. Only the last delta made is remembered: a provider emits a delta right after making it,
 * and one reference costs nothing where a set of hundreds of short-lived objects would.
 */
import { messageDeltaPayloadSchema, type ProviderEventInput } from './schemas/events.js';

// the schema's own bounds, so the two cannot drift apart
const MIN = messageDeltaPayloadSchema.shape.text.minLength ?? 0;
const MAX = messageDeltaPayloadSchema.shape.text.maxLength ?? 0;

let lastMade: ProviderEventInput | undefined;

/**
 * `{ payload: { type: 'run.message_delta', text } }`, frozen. A text out of the schema's bounds
 * gives the same frozen shape, unremembered: the runtime then judges it (and refuses it) as
 * it would any other emission.
 */
export function messageDeltaEvent(text: string): ProviderEventInput {
  const event: ProviderEventInput = Object.freeze({
    payload: Object.freeze({ type: 'run.message_delta' as const, text }),
  });
  lastMade =
    typeof text === 'string' && text.length >= MIN && text.length <= MAX ? event : undefined;
  return event;
}

/**
 * The payload of `input` when `input` is the delta this copy of the SPI made last, otherwise
 * undefined. An identity comparison: nothing of `input` is read unless it is that object.
 */
export function madeDeltaPayload(input: unknown): ProviderEventInput['payload'] | undefined {
  return input !== undefined && input === lastMade ? lastMade.payload : undefined;
}
