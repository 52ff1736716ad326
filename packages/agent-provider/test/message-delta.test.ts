/**
 * A delta made by the SPI is frozen data the event schema accepts when its text is within
 * bounds, and then carries that verdict as a brand only the SPI can place; the SPI keeps
 * nothing about it (the verdict travels with the object).
 */
import { describe, expect, it } from 'vitest';
import {
  captureJson,
  messageDeltaEvent,
  messageDeltaPayloadSchema,
  providerEventInputSchema,
  soundDeltaPayload,
} from '../src/index.js';

const MAX = messageDeltaPayloadSchema.shape.text.maxLength ?? 0;

describe('messageDeltaEvent', () => {
  it('makes frozen data the event schema accepts, read, copied and sent as the plain event', () => {
    const event = messageDeltaEvent('hello');
    const plain = { payload: { type: 'run.message_delta', text: 'hello' } };
    expect(providerEventInputSchema.parse(event)).toEqual(plain);
    expect(Object.isFrozen(event)).toBe(true);
    expect(Object.isFrozen(event.payload)).toBe(true);
    expect(Object.keys(event)).toEqual(['payload']);
    expect(Object.getPrototypeOf(event.payload)).toBe(Object.prototype);
    expect(Object.keys(event.payload)).toEqual(['type', 'text']);
    expect(JSON.parse(JSON.stringify(event))).toStrictEqual(plain);
    expect(structuredClone(event)).toStrictEqual(plain);
    expect({ ...event }).toStrictEqual({ payload: event.payload });
    expect(captureJson(event)).toEqual({ ok: true, value: plain });
    // what every delta inherits is frozen and adds nothing
    const proto = Object.getPrototypeOf(event) as object;
    expect(Object.isFrozen(proto)).toBe(true);
    expect(Reflect.ownKeys(proto)).toEqual(['constructor']);
  });

  it('its constructor, reachable from any delta, only ever makes a sound delta', () => {
    const Made = messageDeltaEvent('hello').constructor as new (text: unknown) => object;
    for (const text of ['', 'x'.repeat(MAX + 1), 42, undefined]) {
      expect(() => new Made(text)).toThrow(TypeError);
    }
    const again = new Made('again');
    expect(soundDeltaPayload(again)).toEqual({ type: 'run.message_delta', text: 'again' });
    expect(Object.isFrozen(Made)).toBe(true);
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

  it('a sound delta carries its verdict, whichever and whenever; nothing else has it, and asking runs no trap', () => {
    const first = messageDeltaEvent('first');
    const second = messageDeltaEvent('second');
    expect(soundDeltaPayload(first)).toBe(first.payload);
    expect(soundDeltaPayload(second)).toBe(second.payload);
    expect(soundDeltaPayload(messageDeltaEvent('x'.repeat(MAX)))).toBeDefined();
    // out of bounds: made as ever, without the brand (a runtime judges it, and refuses it)
    for (const text of ['', 'x'.repeat(MAX + 1), 42 as unknown as string]) {
      const made = messageDeltaEvent(text);
      expect(soundDeltaPayload(made)).toBeUndefined();
      expect(Object.getPrototypeOf(made)).toBe(Object.prototype);
    }
    // a copy, a look-alike, an object holding the made payload: no brand
    const lookAlike = { payload: { type: 'run.message_delta', text: 'first' } };
    for (const other of [{ ...first }, lookAlike, { payload: first.payload }, null, 'first']) {
      expect(soundDeltaPayload(other)).toBeUndefined();
    }
    // a proxy of a branded delta is not branded, and none of its traps runs
    let trapped = 0;
    const traps = new Proxy({}, { get: () => () => (trapped += 1) });
    expect(soundDeltaPayload(new Proxy(first, traps))).toBeUndefined();
    expect(trapped).toBe(0);
  });

  it('a delta another copy of the SPI made is not recognised here, and captures as plain data', async () => {
    const url = new URL('../src/message-delta.ts?second-copy', import.meta.url).href;
    const other = (await import(url)) as typeof import('../src/message-delta.js');
    const theirs = other.messageDeltaEvent('theirs');
    expect(other.soundDeltaPayload(theirs)).toBe(theirs.payload);
    expect(soundDeltaPayload(theirs)).toBeUndefined();
    expect(captureJson(theirs)).toEqual({
      ok: true,
      value: { payload: { type: 'run.message_delta', text: 'theirs' } },
    });
  });
});
