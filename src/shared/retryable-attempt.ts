/**
 * One memoised, retryable attempt at an operation (teardown, interrupt, release): concurrent
 * callers share the attempt in flight (the same promise); a failure is forgotten so the next
 * call tries afresh. After a success, `once` remembers it (later calls resolve at once with its
 * value); otherwise the next call starts a new attempt.
 */
export class RetryableAttempt<T = void> {
  readonly #once: boolean;
  #inflight: Promise<T> | undefined;
  #success: { readonly value: T } | undefined;

  constructor(options: { readonly once: boolean }) {
    this.#once = options.once;
  }

  run(start: () => Promise<T>): Promise<T> {
    if (this.#success !== undefined) return Promise.resolve(this.#success.value);
    if (this.#inflight !== undefined) return this.#inflight;
    let started: Promise<T>;
    try {
      started = start();
    } catch (error) {
      // a synchronous throw fails this attempt like a rejection would, and is not cached
      started = Promise.reject(error instanceof Error ? error : new Error('attempt failed'));
    }
    const attempt = started.then(
      (value) => {
        this.#inflight = undefined;
        if (this.#once) this.#success = { value };
        return value;
      },
      (error: unknown) => {
        this.#inflight = undefined;
        throw error;
      },
    );
    this.#inflight = attempt;
    return attempt;
  }
}
