import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonlDecoder, type JsonlDecoderOptions } from '../../src/jsonl/decoder.js';

function collect(options: Partial<JsonlDecoderOptions> = {}) {
  const frames: unknown[] = [];
  const drops: string[] = [];
  const decoder = new JsonlDecoder({
    onFrame: (v) => frames.push(v),
    onDrop: (r) => drops.push(r),
    ...options,
  });
  return { decoder, frames, drops };
}

const b = (s: string) => Buffer.from(s, 'utf8');

describe('JsonlDecoder', () => {
  it('splits only on 0x0A: U+2028/U+2029 inside strings stay in the frame', () => {
    const { decoder, frames } = collect();
    decoder.write(b('{"a":"x\u2028y\u2029z"}\n{"b":1}\n'));
    expect(frames).toEqual([{ a: 'x\u2028y\u2029z' }, { b: 1 }]);
  });

  it('reassembles a multi-byte character split at every byte offset', () => {
    const text = '{"s":"é€😀\u2028ü"}\n';
    const bytes = b(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const { decoder, frames, drops } = collect();
      decoder.write(bytes.subarray(0, cut));
      decoder.write(bytes.subarray(cut));
      expect(frames, `cut at ${cut}`).toEqual([{ s: 'é€😀\u2028ü' }]);
      expect(drops).toEqual([]);
    }
  });

  it('trims CRLF and ignores blank and whitespace-only lines without a drop', () => {
    const { decoder, frames, drops } = collect();
    decoder.write(b('{"a":1}\r\n\n   \n\t\r\n\r\n{"b":2}\r'));
    decoder.write(b('\n'));
    expect(frames).toEqual([{ a: 1 }, { b: 2 }]);
    expect(drops).toEqual([]);
  });

  it('drops a malformed line as malformed and keeps decoding', () => {
    const { decoder, frames, drops } = collect();
    decoder.write(b('{"a":1}\nnot json\n{"b":\n{"c":3}\n'));
    expect(frames).toEqual([{ a: 1 }, { c: 3 }]);
    expect(drops).toEqual(['malformed', 'malformed']);
  });

  it('flushes an unterminated final line on end(); end() is idempotent', () => {
    const { decoder, frames, drops } = collect();
    decoder.write(b('{"a":1}\n{"b":'));
    decoder.write(b('2}'));
    decoder.end();
    decoder.end();
    decoder.write(b('{"late":true}\n'));
    expect(frames).toEqual([{ a: 1 }, { b: 2 }]);
    expect(drops).toEqual([]);
    expect(decoder.ended).toBe(true);
  });

  it('reports an invalid unterminated final line as malformed, once', () => {
    const { decoder, drops } = collect();
    decoder.write(b('{"b":'));
    decoder.end();
    decoder.end();
    expect(drops).toEqual(['malformed']);
  });

  it('reports an oversized line once, discards its tail, and resumes at the next newline', () => {
    const { decoder, frames, drops } = collect({ maxLineLength: 16 });
    decoder.write(b('{"a":1}\n{"big":"'));
    for (let i = 0; i < 50; i++) decoder.write(b('xxxxxxxxxx'));
    decoder.write(b('"}\n{"b":2}\n'));
    expect(drops).toEqual(['oversized']);
    expect(frames).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('does not retain an oversized line while it streams', () => {
    const { decoder, frames, drops } = collect({ maxLineLength: 1024 });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    decoder.write(b('"'));
    let peak = decoder.pendingBytes;
    for (let i = 0; i < 256; i++) {
      decoder.write(chunk);
      peak = Math.max(peak, decoder.pendingBytes);
    }
    expect(decoder.pendingBytes).toBe(0);
    decoder.write(b('"\n7\n'));
    expect(drops).toEqual(['oversized']);
    expect(frames).toEqual([7]);
    expect(peak).toBeLessThanOrEqual(1025);
  });

  it('retains a growing line as slices up to the bound', () => {
    const { decoder } = collect({ maxLineLength: 100 });
    for (let i = 0; i < 10; i++) decoder.write(b('aaaaaaaaaa'));
    expect(decoder.pendingBytes).toBe(100);
  });

  it('an oversized line cut before end() is not flushed', () => {
    const { decoder, frames, drops } = collect({ maxLineLength: 4 });
    decoder.write(b('[1,2,3,4,5'));
    decoder.end();
    expect(drops).toEqual(['oversized']);
    expect(frames).toEqual([]);
  });

  it('measures the bound in UTF-16 code units by default, bytes on request', () => {
    // "é" is 2 bytes, 1 code unit: the line is 10 units, 15 bytes
    const line = b('"ééééééé"\n');
    const utf16 = collect({ maxLineLength: 9 });
    utf16.decoder.write(line);
    expect(utf16.frames).toEqual(['ééééééé']);
    const bytes = collect({ maxLineLength: 9, lengthUnit: 'bytes' });
    bytes.decoder.write(line);
    expect(bytes.drops).toEqual(['oversized']);
    // the same holds when the line arrives in pieces
    const pieces = collect({ maxLineLength: 9 });
    for (const byte of line) pieces.decoder.write(Buffer.from([byte]));
    expect(pieces.frames).toEqual(['ééééééé']);
    const tooLong = collect({ maxLineLength: 8 });
    for (const byte of line) tooLong.decoder.write(Buffer.from([byte]));
    expect(tooLong.drops).toEqual(['oversized']);
  });

  it('accepts a line of exactly the bound with a trailing CR', () => {
    const { decoder, frames, drops } = collect({ maxLineLength: 5 });
    for (const byte of b('12345\r\n123456\r\n')) decoder.write(Buffer.from([byte]));
    expect(frames).toEqual([12345]);
    expect(drops).toEqual(['oversized']);
  });

  it('property: any chunking of a valid JSONL byte stream yields the same frames', () => {
    const value = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        (values, cuts, crlf) => {
          const expected = values.map((v) => JSON.parse(JSON.stringify(v)) as unknown);
          const stream = b(values.map((v) => JSON.stringify(v) + (crlf ? '\r\n' : '\n')).join(''));
          const { decoder, frames, drops } = collect();
          let pos = 0;
          let i = 0;
          while (pos < stream.length) {
            const size = cuts[i++ % cuts.length]!;
            decoder.write(stream.subarray(pos, pos + size));
            pos += size;
          }
          decoder.end();
          expect(drops).toEqual([]);
          expect(frames).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: ASCII and non-ASCII lines mixed in one chunk decode exactly (one-byte view path)', () => {
    // any Unicode, incl. U+2028/2029 and astral characters; ASCII-only values ride alongside
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 2, stringUnit: 'binary' }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 16 }),
        fc.integer({ min: 1, max: 4096 }),
        fc.boolean(),
        (values, size, crlf) => {
          const expected = values.map((v) => JSON.parse(JSON.stringify(v)) as unknown);
          const stream = b(values.map((v) => JSON.stringify(v) + (crlf ? '\r\n' : '\n')).join(''));
          const { decoder, frames, drops } = collect();
          for (let pos = 0; pos < stream.length; pos += size)
            decoder.write(stream.subarray(pos, pos + size));
          decoder.end();
          expect(drops).toEqual([]);
          expect(frames).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('bounds a non-ASCII line by its UTF-16 length, whatever its byte length', () => {
    // 'é' is 2 bytes and 1 unit; '😀' is 4 bytes and 2 units
    const line = (n: number): string => JSON.stringify('é'.repeat(n));
    const { decoder, frames, drops } = collect({ maxLineLength: 12 });
    decoder.write(
      b(
        `${JSON.stringify('x')}\n${line(10)}\n${line(11)}\n${JSON.stringify('😀'.repeat(5))}\n"ok"\n`,
      ),
    );
    decoder.end();
    // "éé…" with quotes: 12 units fits, 13 does not; 5 emoji + quotes = 12 units
    expect(frames).toEqual(['x', 'é'.repeat(10), '😀'.repeat(5), 'ok']);
    expect(drops).toEqual(['oversized']);
  });
});

describe('JsonlDecoder with invalid UTF-8', () => {
  // bytes allowed inside a JSON string literal: no control bytes, quote or backslash; anything
  // else (continuation bytes, 0xF8–0xFF, truncated sequences) decodes to U+FFFD and stays valid
  const stringByte = fc
    .integer({ min: 0x20, max: 0xff })
    .filter((x) => x !== 0x22 && x !== 0x5c && x !== 0x7f);

  it('a line of lone continuation bytes past the bound is dropped however it is chunked', () => {
    // 20 continuation bytes decode to 20 U+FFFD: 22 code units with the quotes
    const line = Buffer.concat([b('"'), Buffer.alloc(20, 0x80), b('"\n')]);
    const whole = collect({ maxLineLength: 10 });
    whole.decoder.write(line);
    expect(whole.drops).toEqual(['oversized']);
    const split = collect({ maxLineLength: 10 });
    split.decoder.write(line.subarray(0, 1));
    split.decoder.write(line.subarray(1));
    expect(split.frames).toEqual([]);
    expect(split.drops).toEqual(['oversized']);
  });

  it('never retains an unterminated line of continuation bytes beyond 3 × bound + 1 bytes', () => {
    const { decoder, drops } = collect({ maxLineLength: 1024 });
    const chunk = Buffer.alloc(64 * 1024, 0x80);
    decoder.write(b('"'));
    let peak = 0;
    for (let i = 0; i < 64; i++) {
      decoder.write(chunk);
      peak = Math.max(peak, decoder.pendingBytes);
    }
    expect(peak).toBeLessThanOrEqual(3 * 1024 + 1);
    expect(decoder.pendingBytes).toBe(0);
    expect(drops).toEqual(['oversized']);
  });

  it('property: any chunking of a byte stream gives the same frames and drops as one chunk', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            body: fc.array(stringByte, { maxLength: 40 }),
            crlf: fc.boolean(),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        fc.array(fc.integer({ min: 1, max: 16 }), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 30 }),
        (lines, cuts, max) => {
          const stream = Buffer.concat(
            lines.map(({ body, crlf }) =>
              Buffer.concat([b('"'), Buffer.from(body), b(crlf ? '"\r\n' : '"\n')]),
            ),
          );
          const whole = collect({ maxLineLength: max });
          whole.decoder.write(stream);
          whole.decoder.end();
          // the single-chunk path measures the decoded string exactly
          const expected = lines
            .map(({ body }) => Buffer.concat([b('"'), Buffer.from(body), b('"')]).toString())
            .filter((text) => text.length <= max)
            .map((text) => JSON.parse(text) as unknown);
          expect(whole.frames).toEqual(expected);
          const split = collect({ maxLineLength: max });
          let pos = 0;
          let i = 0;
          while (pos < stream.length) {
            const size = cuts[i++ % cuts.length]!;
            split.decoder.write(stream.subarray(pos, pos + size));
            pos += size;
          }
          split.decoder.end();
          expect(split.frames).toEqual(whole.frames);
          expect(split.drops).toEqual(whole.drops);
        },
      ),
      { numRuns: 500 },
    );
  });
});
