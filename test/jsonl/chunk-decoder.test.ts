/**
 * The transports' decoder hands a chunk's frames on only once the chunk is decoded whole, in
 * stream order with its drops among them, and loses nothing when a handler writes again.
 */
import { describe, expect, it } from 'vitest';
import { ChunkDecoder } from '../../src/jsonl/chunk-decoder.js';

type Heard = readonly ['frame', unknown] | readonly ['drop', string];

function listening(maxLineLength?: number): { decoder: ChunkDecoder; heard: Heard[] } {
  const heard: Heard[] = [];
  const decoder = new ChunkDecoder({
    onFrame: (value) => heard.push(['frame', value]),
    onDrop: (reason) => heard.push(['drop', reason]),
    ...(maxLineLength === undefined ? {} : { maxLineLength }),
  });
  return { decoder, heard };
}

describe('ChunkDecoder', () => {
  it('hands a chunk on after decoding all of it, frames and drops in stream order', () => {
    const { decoder, heard } = listening(8);
    decoder.write(Buffer.from('{"a":1}\nnot json\n{"b":2}\n"far too long"\n3\n{"c"'));
    expect(heard).toEqual([
      ['frame', { a: 1 }],
      ['drop', 'malformed'],
      ['frame', { b: 2 }],
      ['drop', 'oversized'],
      ['frame', 3],
    ]);
    expect(decoder.pendingBytes).toBe(4);
    heard.length = 0;
    decoder.write(Buffer.from(':4}\nbad\n'));
    decoder.end();
    expect(heard).toEqual([
      ['frame', { c: 4 }],
      ['drop', 'malformed'],
    ]);
  });

  it('decodes the whole chunk before the first frame is handed on', () => {
    const pendingAtFrame: number[] = [];
    const decoder: ChunkDecoder = new ChunkDecoder({
      onFrame: () => pendingAtFrame.push(decoder.pendingBytes),
    });
    decoder.write(Buffer.from('1\n2\n{"tail'));
    // the unterminated tail was already held when the first frame arrived
    expect(pendingAtFrame).toEqual([6, 6]);
  });

  it('a handler that writes again has its frames handed on after the rest of the chunk, in order', () => {
    const order: unknown[] = [];
    let again = true;
    const decoder: ChunkDecoder = new ChunkDecoder({
      onFrame: (value) => {
        order.push(value);
        if (again) {
          again = false;
          decoder.write(Buffer.from('3\nnope\n4\n'));
        }
      },
      onDrop: (reason) => order.push(reason),
    });
    decoder.write(Buffer.from('1\n2\n'));
    expect(order).toEqual([1, 2, 3, 'malformed', 4]);
    decoder.write(Buffer.from('5\n'));
    expect(order).toEqual([1, 2, 3, 'malformed', 4, 5]);
  });

  it('the last unterminated line is handed on at the end, and nothing after it', () => {
    const { decoder, heard } = listening();
    decoder.write(Buffer.from('{"last":true}'));
    expect(heard).toEqual([]);
    decoder.end();
    decoder.write(Buffer.from('{"late":true}\n'));
    expect(heard).toEqual([['frame', { last: true }]]);
  });
});
