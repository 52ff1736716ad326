/**
 * A delta made by the SPI is judged when made and recognised afterwards by identity only: the
 * last one made, unchanged and unchangeable, and nothing else.
 */
import { describe, expect, it } from 'vitest';
import {
  madeDeltaPayload,
  messageDeltaEvent,
  messageDeltaPayloadSchema,
  providerEventInputSchema,
} from '../src/index.js';

const MAX = messageDeltaPayloadSchema.shape.text.maxLength ?? 0;

describe('messageDeltaEvent', () => {
  it('makes frozen plain data the event schema accepts, and recognises the last one made', () => {
    const event = messageDeltaEvent('hello');
    expect(providerEventInputSchema.parse(event)).toEqual({
      payload: { type: 'run.message_delta', text: 'hello' },
    });
    expect(Object.isFrozen(event)).toBe(true);
    expect(Object.isFrozen(event.payload)).toBe(true);
    expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(event.payload)).toBe(Object.prototype);
    expect(madeDeltaPayload(event)).toBe(event.payload);
  });

  it('remembers only the last one: an earlier one, or an equal look-alike, is judged as any emission', () => {
    const first = messageDeltaEvent('a');
    const second = messageDeltaEvent('b');
    expect(madeDeltaPayload(first)).toBeUndefined();
    expect(madeDeltaPayload(second)).toBe(second.payload);
    expect(madeDeltaPayload({ payload: { type: 'run.message_delta', text: 'b' } })).toBeUndefined();
    expect(madeDeltaPayload(undefined)).toBeUndefined();
  });

  it('a text out of the schema bounds is made as ever but not remembered, so the runtime refuses it', () => {
    for (const text of ['', 'x'.repeat(MAX + 1), 42 as unknown as string]) {
      const event = messageDeltaEvent(text);
      expect(madeDeltaPayload(event)).toBeUndefined();
      expect(providerEventInputSchema.safeParse(event).success).toBe(false);
    }
    const longest = messageDeltaEvent('x'.repeat(MAX));
    expect(madeDeltaPayload(longest)).toBe(longest.payload);
  });

  it('never reads a stranger: a proxy whose every trap throws is answered without a trap', () => {
    const hostile = new Proxy(
      {},
      new Proxy(
        {},
        {
          get: () => () => {
            throw new Error('trap');
          },
        },
      ),
    );
    expect(madeDeltaPayload(hostile)).toBeUndefined();
  });

  it('what was made cannot be changed afterwards', () => {
    const event = messageDeltaEvent('fixed');
    expect(() => {
      (event as { payload: unknown }).payload = { type: 'run.message_delta', text: 'swapped' };
    }).toThrow(TypeError);
    expect(() => {
      (event.payload as { text: string }).text = 'swapped';
    }).toThrow(TypeError);
    expect(madeDeltaPayload(event)).toEqual({ type: 'run.message_delta', text: 'fixed' });
  });
});
