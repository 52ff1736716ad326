/**
 * The list and the inbox as they change, for every stream of this console at once: one watch
 * of the whole log (`store.watchLog`), one listing per change however many pages are open, and
 * a stream is written to only when what it shows changed. Leases change without a log record
 * (an owner that ends just stops renewing), so the list is also read again every
 * `recheckMs` — on the server, never by the page; a store that cannot watch the whole log is
 * followed by that recheck alone.
 */
import type { AgentRuntime } from '@relvo-labs/agent-runtime';
import type { InboxItem, SessionBook, SessionRow } from './sessions.js';

export interface LiveSnapshot {
  readonly sessions: readonly SessionRow[];
  readonly pending: readonly InboxItem[];
}

type Listener = (snapshot: LiveSnapshot, changed: { sessions: boolean; pending: boolean }) => void;

export class LiveList {
  readonly #runtime: AgentRuntime;
  readonly #book: SessionBook;
  readonly #recheckMs: number;
  /** Each listener with what hears a listing that threw. */
  readonly #listeners = new Map<Listener, (error: unknown) => void>();
  #stopWatch: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #latest: LiveSnapshot | undefined;
  #texts = { sessions: '', pending: '' };

  constructor(runtime: AgentRuntime, book: SessionBook, recheckMs: number) {
    this.#runtime = runtime;
    this.#book = book;
    this.#recheckMs = recheckMs;
  }

  /**
   * Calls `listener` with a snapshot read after this call, then after every change; `failed`
   * hears a listing that threw (the stream says so and ends). Returns the way to stop.
   */
  async follow(listener: Listener, failed: (error: unknown) => void): Promise<() => void> {
    const first = this.#listeners.size === 0;
    this.#listeners.set(listener, failed);
    const stop = (): void => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.#idle();
    };
    try {
      if (first) await this.#start();
      await this.poke();
    } catch (error) {
      stop();
      throw error;
    }
    const latest = this.#latest;
    if (latest !== undefined && this.#listeners.has(listener)) {
      listener(latest, { sessions: true, pending: true });
    }
    return stop;
  }

  /** Reads the list again (coalesced): resolves after a read that began after this call. */
  poke(): Promise<void> {
    if (this.#running !== undefined) {
      this.#again = true;
      return this.#running;
    }
    const run = async (): Promise<void> => {
      do {
        this.#again = false;
        await this.#read();
      } while (this.#pokedMeanwhile() && this.#listeners.size > 0);
    };
    this.#running = run().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** A method, not the field: `poke` sets it while a read awaits. */
  #pokedMeanwhile(): boolean {
    return this.#again;
  }

  async #start(): Promise<void> {
    const wake = (): void => {
      this.poke().catch((error: unknown) => {
        for (const failed of [...this.#listeners.values()]) failed(error);
      });
    };
    this.#timer = setInterval(wake, this.#recheckMs);
    this.#timer.unref();
    const watch = this.#runtime.store.watchLog?.bind(this.#runtime.store);
    if (watch !== undefined) this.#stopWatch = await watch(wake);
    // the last stream may have gone while the watch started
    if (this.#listeners.size === 0) this.#idle();
  }

  #idle(): void {
    this.#stopWatch?.();
    this.#stopWatch = undefined;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#latest = undefined;
    this.#texts = { sessions: '', pending: '' };
  }

  async #read(): Promise<void> {
    const sessions = await this.#book.list();
    const pending = this.#book.inboxOf(sessions);
    const texts = { sessions: JSON.stringify(sessions), pending: JSON.stringify(pending) };
    const changed = {
      sessions: texts.sessions !== this.#texts.sessions,
      pending: texts.pending !== this.#texts.pending,
    };
    this.#texts = texts;
    this.#latest = { sessions, pending };
    if (!changed.sessions && !changed.pending) return;
    for (const listener of [...this.#listeners.keys()]) listener(this.#latest, changed);
  }
}
