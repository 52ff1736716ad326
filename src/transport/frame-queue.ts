/**
 * A push-to-pull queue behind `CodexTransport.incoming`. Single consumer: every call to
 * `[Symbol.asyncIterator]()` returns the same iterator, so two loops would split the frames.
 * Frames queued before `end()`/`fail()` are always delivered first.
 */
export class FrameQueue implements AsyncIterable<unknown> {
  #items: unknown[] = [];
  #head = 0;
  /** A `nextBatch()` consumer waiting for frames. */
  #batchWaiter: (() => void) | undefined;
  #done = false;
  #error: { readonly err: Error } | undefined;
  #waiter:
    { resolve: (r: IteratorResult<unknown>) => void; reject: (e: Error) => void } | undefined;
  readonly #iterator: AsyncIterator<unknown>;

  constructor() {
    this.#iterator = {
      next: () => this.#next(),
      return: () => {
        this.#done = true;
        this.#items.length = 0;
        this.#head = 0;
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }

  get closed(): boolean {
    return this.#done;
  }

  get backlog(): number {
    return this.#items.length - this.#head;
  }

  push(frame: unknown): void {
    if (this.#done) return;
    const b = this.#batchWaiter;
    if (b !== undefined) {
      // the consumer wakes after the producer's synchronous burst and takes all of it
      this.#batchWaiter = undefined;
      this.#items.push(frame);
      b();
      return;
    }
    const w = this.#waiter;
    if (w !== undefined) {
      this.#waiter = undefined;
      w.resolve({ done: false, value: frame });
      return;
    }
    this.#items.push(frame);
  }

  end(): void {
    this.#finish(undefined);
  }

  fail(err: Error): void {
    this.#finish({ err });
  }

  #finish(error: { readonly err: Error } | undefined): void {
    if (this.#done) return;
    this.#done = true;
    this.#error = error;
    const b = this.#batchWaiter;
    if (b !== undefined) {
      this.#batchWaiter = undefined;
      b();
    }
    const w = this.#waiter;
    if (w === undefined) return;
    this.#waiter = undefined;
    if (error === undefined) w.resolve({ done: true, value: undefined });
    else w.reject(error.err);
  }

  #next(): Promise<IteratorResult<unknown>> {
    if (this.#head < this.#items.length) {
      const value = this.#items[this.#head];
      this.#items[this.#head] = undefined;
      this.#head += 1;
      if (this.#head === this.#items.length) {
        this.#items.length = 0;
        this.#head = 0;
      } else if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
        this.#items.splice(0, this.#head);
        this.#head = 0;
      }
      return Promise.resolve({ done: false, value });
    }
    if (this.#done) {
      const error = this.#error;
      if (error === undefined) return Promise.resolve({ done: true, value: undefined });
      // a rejection is reported once; afterwards the iterator is simply finished
      this.#error = undefined;
      return Promise.reject(error.err);
    }
    if (this.#waiter !== undefined)
      return Promise.reject(new Error('FrameQueue: concurrent next()'));
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  /**
   * Every frame queued now, in order, at once — or, when none is queued, those of the next
   * synchronous burst of pushes. Resolves `undefined` at the end; rejects with a failure once
   * (after the frames queued before it). The alternative to the iterator for a consumer that
   * handles frames synchronously: one await per burst instead of one per frame. Same single
   * consumer: do not mix it with the iterator.
   */
  async nextBatch(): Promise<readonly unknown[] | undefined> {
    if (this.#head >= this.#items.length && !this.#done) {
      if (this.#waiter !== undefined || this.#batchWaiter !== undefined)
        throw new Error('FrameQueue: concurrent next()');
      await new Promise<void>((resolve) => {
        this.#batchWaiter = resolve;
      });
    }
    if (this.#head < this.#items.length) {
      const batch = this.#head === 0 ? this.#items : this.#items.slice(this.#head);
      this.#items = [];
      this.#head = 0;
      return batch;
    }
    const error = this.#error;
    if (error === undefined) return undefined;
    this.#error = undefined;
    throw error.err;
  }

  [Symbol.asyncIterator](): AsyncIterator<unknown> {
    return this.#iterator;
  }
}

/** An inbound stream that can hand over every frame queued at once (our transports' queue). */
interface BatchingStream {
  nextBatch(): Promise<readonly unknown[] | undefined>;
}

function batches(
  incoming: AsyncIterable<unknown>,
): incoming is AsyncIterable<unknown> & BatchingStream {
  return typeof (incoming as Partial<BatchingStream>).nextBatch === 'function';
}

/**
 * Any transport's `incoming` as one stream of bursts: every frame queued at once when the stream
 * can hand them over (a `FrameQueue`: one await per burst instead of one per frame), else one
 * frame at a time, for a host's own async iterable. A failure rejects once, after the frames
 * queued before it.
 */
export async function* frameBursts(
  incoming: AsyncIterable<unknown>,
): AsyncGenerator<readonly unknown[], void, undefined> {
  if (batches(incoming)) {
    for (let batch = await incoming.nextBatch(); batch !== undefined;) {
      yield batch;
      batch = await incoming.nextBatch();
    }
    return;
  }
  for await (const frame of incoming) yield [frame];
}
