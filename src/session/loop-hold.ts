/**
 * Whether the session holds the host's event loop open (ADR-0009): while its run is active, and
 * while a session-level request (a revert, a history page) waits for codex. One owner of the
 * connection's `keepAlive`, so a request that ends cannot let go of a run's hold, nor a run that
 * ends of a request's.
 */
export class LoopHold {
  readonly #set: (on: boolean) => void;
  #run = false;
  #requests = 0;

  constructor(set: (on: boolean) => void) {
    this.#set = set;
  }

  /** The active run holds the loop while it lasts. */
  run(on: boolean): void {
    this.#run = on;
    this.#apply();
  }

  /** Holds the loop while `work` runs. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.#requests += 1;
    this.#apply();
    try {
      return await work();
    } finally {
      this.#requests -= 1;
      this.#apply();
    }
  }

  #apply(): void {
    this.#set(this.#run || this.#requests > 0);
  }
}
