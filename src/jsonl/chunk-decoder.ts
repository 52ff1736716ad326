/**
 * The JSONL decoder a transport reads a pipe with: each chunk is decoded whole, then its frames
 * (and drops, in stream order among them) are handed on. Parsing a chunk in one tight loop and
 * handling its frames in another keeps each loop's code hot; handing every frame on while the
 * next is still to be parsed made the adapter path measurably slower (docs/performance.md). A
 * chunk's frames are all the batch holds, so it is bounded by the pipe's chunk size.
 */
import { JsonlDecoder, type JsonlDecoderOptions, type JsonlDropReason } from './decoder.js';

export class ChunkDecoder {
  readonly #decoder: JsonlDecoder;
  readonly #onFrame: (value: unknown) => void;
  readonly #onDrop: ((reason: JsonlDropReason) => void) | undefined;
  readonly #frames: unknown[] = [];
  /** Drops of this chunk: how many of its frames came before each, and why (rare). */
  readonly #dropsAfter: number[] = [];
  readonly #dropReasons: JsonlDropReason[] = [];
  #delivering = false;

  constructor(options: JsonlDecoderOptions) {
    this.#onFrame = options.onFrame;
    this.#onDrop = options.onDrop;
    this.#decoder = new JsonlDecoder({
      ...options,
      onFrame: (value) => {
        this.#frames.push(value);
      },
      onDrop: (reason) => {
        this.#dropsAfter.push(this.#frames.length);
        this.#dropReasons.push(reason);
      },
    });
  }

  /** Bytes of the unterminated line currently retained. */
  get pendingBytes(): number {
    return this.#decoder.pendingBytes;
  }

  /** Decodes one chunk, then hands on what it held. Ignored after `end()`. */
  write(chunk: Buffer): void {
    this.#decoder.write(chunk);
    this.#deliver();
  }

  /** The stream ended: a last unterminated line is decoded and handed on. */
  end(): void {
    this.#decoder.end();
    this.#deliver();
  }

  #deliver(): void {
    // a handler that writes again only adds to the batch this loop is reading: order is kept
    if (this.#delivering) return;
    this.#delivering = true;
    const frames = this.#frames;
    const reasons = this.#dropReasons;
    let drop = 0;
    try {
      for (let i = 0; ; i++) {
        while (drop < reasons.length && this.#dropsAfter[drop] === i) {
          const reason = reasons[drop] as JsonlDropReason;
          drop += 1;
          this.#onDrop?.(reason);
        }
        if (i >= frames.length) break;
        this.#onFrame(frames[i]);
      }
    } finally {
      frames.length = 0;
      this.#dropsAfter.length = 0;
      reasons.length = 0;
      this.#delivering = false;
    }
  }
}
