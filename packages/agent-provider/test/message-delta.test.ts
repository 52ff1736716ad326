/**
 * A delta made by the SPI is frozen plain data the event schema accepts when its text is within
 * bounds; the SPI keeps nothing about it (a runtime judges what it receives).
 */
import { describe, expect, it } from 'vitest';
import {
  messageDeltaEvent,
  messageDeltaPayloadSchema,
  providerEventInputSchema,
} from '../src/index.js';

const MAX = messageDeltaPayloadSchema.shape.text.maxLength ?? 0;

describe('messageDeltaEvent', () => {
  it('makes frozen plain data the event schema accepts', () => {
    const event = messageDeltaEvent('hello');
    expect(providerEventInputSchema.parse(event)).toEqual({
      payload: { type: 'run.message_delta', text: 'hello' },
    });
    expect(Object.isFrozen(event)).toBe(true);
    expect(Object.isFrozen(event.payload)).toBe(true);
    expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(event.payload)).toBe(Object.prototype);
    expect(Object.keys(event.payload)).toEqual(['type', 'text']);
  });

  it('a text out of the schema bounds is made as ever, and the schema refuses it', () => {
    for (const text of ['', 'x'.repeat(MAX + 1), 42 as unknown as string]) {
      expect(providerEventInputSchema.safeParse(messageDeltaEvent(text)).success).toBe(false);
    }
    expect(providerEventInputSchema.safeParse(messageDeltaEvent('x'.repeat(MAX))).success).toBe(
      true,
    );
  });

  it('what was made cannot be changed afterwards', () => {
    const event = messageDeltaEvent('fixed');
    expect(() => {
      (event as { payload: unknown }).payload = { type: 'run.message_delta', text: 'swapped' };
    }).toThrow(TypeError);
    expect(() => {
      (event.payload as { text: string }).text = 'swapped';
    }).toThrow(TypeError);
    expect(event.payload).toEqual({ type: 'run.message_delta', text: 'fixed' });
  });
});
