/**
 * A message delta made by the SPI (docs/spi.md §10.3). A turn carries deltas by the hundred,
 * and a runtime judges every emission it receives: a delta made here is frozen plain data, so a
 * runtime that finds it sound (two data members, a string within the schema's bounds) may keep
 * the payload as it is instead of copying it. Nothing is remembered here: the runtime's verdict
 * rests on what it reads, never on which object was made last.
 */
import type { ProviderEventInput } from './schemas/events.js';

/** `{ payload: { type: 'run.message_delta', text } }`, frozen; the runtime judges the text. */
export function messageDeltaEvent(text: string): ProviderEventInput {
  return Object.freeze({
    payload: Object.freeze({ type: 'run.message_delta' as const, text }),
  });
}
