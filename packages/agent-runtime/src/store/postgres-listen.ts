/**
 * Live appends from any runtime on the database: one LISTEN connection per store, shared by
 * every watcher. A notification carries a session id and a sequence, never content; a watcher
 * only learns "read again". NOTIFY is delivered after commit, so what it announces is durable.
 * A dropped connection is re-established and every watcher is woken, since notifications sent
 * meanwhile are gone.
 */
import type { Notification, Pool, PoolClient } from 'pg';

const RETRY_MS = 1_000;

export class AppendWatcher {
  readonly #watchers = new Map<string, Set<() => void>>();
  /** Woken by every notification, whichever session it names. */
  readonly #everything = new Set<() => void>();
  #client: Promise<PoolClient> | undefined;
  // A client may report several errors, or one after close() gave it back; release it once.
  readonly #released = new WeakSet<PoolClient>();
  #closed = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly channel: string,
  ) {}

  /** Resolves once listening: an append committed after that wakes `onAppend`. */
  watch(sessionId: string, onAppend: () => void): Promise<() => void> {
    let set = this.#watchers.get(sessionId);
    if (set === undefined) {
      set = new Set();
      this.#watchers.set(sessionId, set);
    }
    set.add(onAppend);
    const unwatch = (): void => {
      const s = this.#watchers.get(sessionId);
      s?.delete(onAppend);
      if (s?.size === 0) this.#watchers.delete(sessionId);
    };
    return this.#onceListening(unwatch);
  }

  /** Resolves once listening: any append committed after that wakes `onChange`. */
  watchAll(onChange: () => void): Promise<() => void> {
    this.#everything.add(onChange);
    return this.#onceListening(() => {
      this.#everything.delete(onChange);
    });
  }

  /** `unwatch` once the connection listens; undone (and the failure thrown) when it cannot. */
  async #onceListening(unwatch: () => void): Promise<() => void> {
    try {
      await this.#listening();
    } catch (error) {
      unwatch();
      throw error;
    }
    return unwatch;
  }

  #listening(): Promise<PoolClient> {
    this.#client ??= this.#connect();
    return this.#client;
  }

  async #connect(): Promise<PoolClient> {
    const attempt = (async () => {
      const client = await this.pool.connect();
      client.on('notification', (n) => {
        this.#notified(n);
      });
      client.on('error', (error) => {
        this.#dropped(client, error);
      });
      await client.query(`LISTEN "${this.channel}"`);
      return client;
    })();
    attempt.catch(() => {
      this.#client = undefined;
    });
    return attempt;
  }

  #notified(n: Notification): void {
    if (n.channel !== this.channel || n.payload === undefined) return;
    const sessionId = n.payload.slice(0, n.payload.lastIndexOf(' '));
    for (const fn of [...(this.#watchers.get(sessionId) ?? [])]) fn();
    for (const fn of [...this.#everything]) fn();
  }

  #dropped(client: PoolClient, error: Error): void {
    if (this.#released.has(client)) return;
    this.#released.add(client);
    client.release(error);
    this.#client = undefined;
    if (this.#closed) return;
    const again = (): void => {
      this.#retry = undefined;
      if (this.#closed || (this.#watchers.size === 0 && this.#everything.size === 0)) return;
      this.#listening().then(
        () => {
          this.#wakeAll();
        },
        () => {
          this.#retry = setTimeout(again, RETRY_MS).unref();
        },
      );
    };
    again();
    this.#wakeAll();
  }

  #wakeAll(): void {
    for (const set of [...this.#watchers.values()]) for (const fn of [...set]) fn();
    for (const fn of [...this.#everything]) fn();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    this.#wakeAll();
    this.#watchers.clear();
    this.#everything.clear();
    if (client === undefined) return;
    try {
      const c = await client;
      await c.query(`UNLISTEN "${this.channel}"`).catch(() => undefined);
      if (this.#released.has(c)) return;
      this.#released.add(c);
      c.release();
    } catch {
      // never connected: nothing to release
    }
  }
}
