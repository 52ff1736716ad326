/**
 * Byte-level JSONL decoder.
 *
 * Works on raw Buffer chunks so that only the 0x0A byte delimits frames: U+2028/U+2029 inside a
 * JSON string never split a line, and a multi-byte UTF-8 sequence split across chunks is simply
 * decoded once the whole line is present (a UTF-8 sequence never contains 0x0A).
 *
 * A partial line is kept as a list of Buffer slices and decoded once at its newline, so a long
 * line costs one concat instead of a string that grows per chunk.
 */

import { isAscii } from 'node:buffer';

/** Default line bound (docs/behaviour.md §3.3): 4,000,000 UTF-16 code units. */
export const JSONL_DEFAULT_MAX_LINE_LENGTH = 4_000_000;

export const JSONL_LENGTH_UNITS = ['utf16', 'bytes'] as const;
/**
 * How the line bound is measured. `utf16` (default) counts UTF-16 code units of the decoded
 * line, i.e. JavaScript string length; `bytes` counts raw UTF-8 bytes. Either way the trailing
 * `\r` of a CRLF line and the `\n` itself are not counted.
 */
export type JsonlLengthUnit = (typeof JSONL_LENGTH_UNITS)[number];

export type JsonlDropReason = 'oversized' | 'malformed';

export interface JsonlDecoderOptions {
  /** Called for every decoded JSON value, in stream order. Must not throw. */
  readonly onFrame: (value: unknown) => void;
  /** Called when a line is dropped. Must not throw. */
  readonly onDrop?: (reason: JsonlDropReason) => void;
  /** Longest accepted line, in `lengthUnit`s. Default 4,000,000. */
  readonly maxLineLength?: number;
  readonly lengthUnit?: JsonlLengthUnit;
}

const LF = 0x0a;

/**
 * Offset of the first byte ≥ 0x80 in `buf[from, to)`, or -1. Narrows down with the native
 * `isAscii` (vectorised) instead of scanning every byte in JavaScript: non-ASCII is rare in
 * codex frames, so most calls answer with one check.
 */
function firstNonAscii(buf: Buffer, from: number, to: number): number {
  if (from >= to || isAscii(buf.subarray(from, to))) return -1;
  while (to - from > 64) {
    const mid = (from + to) >>> 1;
    if (isAscii(buf.subarray(from, mid))) from = mid;
    else to = mid;
  }
  for (let i = from; i < to; i++) if ((buf[i] ?? 0) >= 0x80) return i;
  return -1;
}
const CR = 0x0d;

/**
 * A lower bound on the UTF-16 code units a UTF-8 byte range decodes to: every byte that is not a
 * continuation byte starts a character or a U+FFFD. (Lone continuation bytes also decode to
 * U+FFFD each, so this is not exact for invalid input; the exact check is made on the string.)
 */
function minUtf16Units(buf: Buffer, start: number, end: number): number {
  let units = 0;
  for (let i = start; i < end; i++) if (((buf[i] ?? 0) & 0xc0) !== 0x80) units += 1;
  return units;
}

/** True when the string is empty or only JSON whitespace (space, tab, CR, LF). */
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) return false;
  }
  return true;
}

export class JsonlDecoder {
  readonly #onFrame: (value: unknown) => void;
  readonly #onDrop: (reason: JsonlDropReason) => void;
  readonly #max: number;
  readonly #countUtf16: boolean;

  /** Slices of the current, unterminated line. */
  #parts: Buffer[] = [];
  #partBytes = 0;
  /** Lower bound on the UTF-16 units of `#parts`; only kept once the bytes could exceed the bound. */
  #partUnits = -1;
  /** Inside an oversized line: discard bytes up to the next newline. */
  #discarding = false;
  #ended = false;

  constructor(options: JsonlDecoderOptions) {
    this.#onFrame = options.onFrame;
    this.#onDrop = options.onDrop ?? (() => undefined);
    const max = options.maxLineLength ?? JSONL_DEFAULT_MAX_LINE_LENGTH;
    if (!Number.isSafeInteger(max) || max < 1)
      throw new RangeError('maxLineLength must be a positive integer');
    this.#max = max;
    this.#countUtf16 = (options.lengthUnit ?? 'utf16') === 'utf16';
  }

  /** Bytes of the unterminated line currently retained (0 while discarding an oversized line). */
  get pendingBytes(): number {
    return this.#partBytes;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Feed one chunk. Ignored after `end()`. */
  write(chunk: Buffer): void {
    if (this.#ended) return;
    let start = 0;
    const len = chunk.length;
    while (start < len) {
      const nl = chunk.indexOf(LF, start);
      if (this.#discarding) {
        if (nl === -1) return;
        this.#discarding = false;
        start = nl + 1;
        continue;
      }
      if (nl === -1) {
        this.#append(chunk, start, len);
        return;
      }
      if (this.#parts.length === 0) {
        // Fast path: every complete line of this chunk at once.
        const last = chunk.lastIndexOf(LF);
        this.#lines(chunk, start, last);
        start = last + 1;
        continue;
      } else {
        if (this.#append(chunk, start, nl)) {
          const joined = Buffer.concat(this.#parts, this.#partBytes);
          this.#reset();
          this.#line(joined, 0, joined.length);
        }
        // an oversized line ends at this newline either way
        this.#discarding = false;
      }
      start = nl + 1;
    }
  }

  /** Flush an unterminated final line (best effort). Idempotent. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#discarding || this.#parts.length === 0) {
      this.#reset();
      return;
    }
    const joined = Buffer.concat(this.#parts, this.#partBytes);
    this.#reset();
    this.#line(joined, 0, joined.length);
  }

  #reset(): void {
    this.#parts = [];
    this.#partBytes = 0;
    this.#partUnits = -1;
  }

  /** Keep a slice of a partial line; false (and discarding) once it grows past the bound. */
  #append(chunk: Buffer, start: number, end: number): boolean {
    if (end <= start) return true;
    const bytes = this.#partBytes + (end - start);
    // +1 tolerates a trailing CR that will be trimmed at the newline.
    if (bytes > this.#max + 1) {
      if (!this.#countUtf16) return this.#oversized();
      // No byte sequence, valid or not, decodes to fewer than one unit per 3 bytes, so past this
      // the line is oversized whatever it holds; it also bounds memory for invalid input.
      if (bytes > 3 * this.#max + 1) return this.#oversized();
      if (this.#partUnits < 0) {
        let units = 0;
        for (const p of this.#parts) units += minUtf16Units(p, 0, p.length);
        this.#partUnits = units;
      }
      this.#partUnits += minUtf16Units(chunk, start, end);
      if (this.#partUnits > this.#max + 1) return this.#oversized();
    }
    // subarray shares memory with the chunk; the chunk is retained only while the line is open.
    this.#parts.push(chunk.subarray(start, end));
    this.#partBytes = bytes;
    return true;
  }

  #oversized(): false {
    this.#reset();
    this.#discarding = true;
    this.#onDrop('oversized');
    return false;
  }

  /**
   * Decode the complete lines `chunk[start, last)`. A one-byte (latin1) view of the bytes is
   * cheap and its string index equals the byte offset, so ASCII lines are parsed straight from
   * it and only a line holding a byte ≥ 0x80 is decoded as UTF-8. Decoding a whole chunk as
   * UTF-8 would make every line of it a two-byte string as soon as one character is not ASCII.
   */
  #lines(chunk: Buffer, start: number, last: number): void {
    const view = chunk.toString('latin1', start, last);
    // view index of the next non-ASCII byte (-1: none left)
    const nextHigh = (from: number): number => {
      const at = firstNonAscii(chunk, start + from, last);
      return at === -1 ? -1 : at - start;
    };
    let high = nextHigh(0);
    let from = 0;
    for (;;) {
      const nl = view.indexOf('\n', from);
      const to = nl === -1 ? view.length : nl;
      let end = to;
      if (end > from && view.charCodeAt(end - 1) === CR) end -= 1;
      if (end > from) {
        if (high === -1 || high >= to) {
          // ASCII: one byte, one UTF-16 unit
          if (end - from > this.#max) this.#onDrop('oversized');
          else this.#parse(view.slice(from, end));
        } else {
          this.#decoded(chunk.toString('utf8', start + from, start + end), end - from);
          high = nextHigh(to);
        }
      }
      if (nl === -1) return;
      from = nl + 1;
    }
  }

  /** A decoded non-ASCII line, bounded in the configured unit. */
  #decoded(text: string, bytes: number): void {
    if ((this.#countUtf16 ? text.length : bytes) > this.#max) this.#onDrop('oversized');
    else this.#parse(text);
  }

  #parse(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (!isBlank(text)) this.#onDrop('malformed');
      return;
    }
    this.#onFrame(value);
  }

  /** Decode one complete line `buf[start, end)` (newline excluded). */
  #line(buf: Buffer, start: number, end: number): void {
    if (end > start && buf[end - 1] === CR) end -= 1;
    if (end === start) return;
    if (!this.#countUtf16 && end - start > this.#max) {
      this.#onDrop('oversized');
      return;
    }
    // measured on the decoded string, exactly as the single-chunk path does
    // an ASCII line decodes to the same text as latin1, and far faster when it is long
    const ascii = isAscii(buf.subarray(start, end));
    this.#decoded(buf.toString(ascii ? 'latin1' : 'utf8', start, end), end - start);
  }
}
