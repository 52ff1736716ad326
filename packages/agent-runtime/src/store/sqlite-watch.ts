/**
 * What other processes commit to a shared SQLite file, by a bounded poll: every `everyMs` one
 * `PRAGMA data_version` (it changes when another connection committed), and only then the
 * watched sessions' last sequences and the command table's change counter. SQLite has no
 * notifications across processes; a watcher learns "read again", never content. This store's
 * own commits wake watchers directly.
 */
import type Database from 'better-sqlite3';

interface Watched {
  last: number;
  readonly fns: Set<() => void>;
}

export class SqlitePoller {
  readonly #sessions = new Map<string, Watched>();
  readonly #commands = new Set<() => void>();
  readonly #log = new Set<() => void>();
  readonly #version: Database.Statement;
  readonly #lastSequence: Database.Statement;
  readonly #commandsChanged: Database.Statement;
  #dataVersion = -1;
  #commandsSeen = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    db: Database.Database,
    private readonly everyMs: number,
  ) {
    this.#version = db.prepare('PRAGMA data_version').pluck();
    this.#lastSequence = db
      .prepare('SELECT last_sequence FROM sessions WHERE session_id = ?')
      .pluck();
    this.#commandsChanged = db.prepare('SELECT coalesce(max(changed), 0) FROM commands').pluck();
  }

  /** Calls `fn` after each commit to the session that this or any other process made. */
  watchSession(sessionId: string, fn: () => void): () => void {
    let watched = this.#sessions.get(sessionId);
    if (watched === undefined) {
      watched = { last: this.#sequence(sessionId), fns: new Set() };
      this.#sessions.set(sessionId, watched);
    }
    watched.fns.add(fn);
    this.#arm();
    return () => {
      const w = this.#sessions.get(sessionId);
      w?.fns.delete(fn);
      if (w?.fns.size === 0) this.#sessions.delete(sessionId);
      this.#disarmWhenIdle();
    };
  }

  /** Calls `fn` soon after any command is recorded or changed, here or elsewhere. */
  watchCommands(fn: () => void): () => void {
    if (this.#commands.size === 0) this.#commandsSeen = this.#commandsChanged.get() as number;
    this.#commands.add(fn);
    this.#arm();
    return () => {
      this.#commands.delete(fn);
      this.#disarmWhenIdle();
    };
  }

  /** Calls `fn` soon after any commit to the file: this process's appends, or another's. */
  watchLog(fn: () => void): () => void {
    this.#log.add(fn);
    this.#arm();
    return () => {
      this.#log.delete(fn);
      this.#disarmWhenIdle();
    };
  }

  /** After this store's own commit: the sessions' new last sequences. */
  appended(last: ReadonlyMap<string, { readonly lastSequence: number }>): void {
    if (this.#log.size > 0)
      queueMicrotask(() => {
        for (const fn of [...this.#log]) fn();
      });
    for (const [id, summary] of last) {
      const watched = this.#sessions.get(id);
      if (watched === undefined) continue;
      watched.last = summary.lastSequence;
      queueMicrotask(() => {
        for (const fn of [...watched.fns]) fn();
      });
    }
  }

  /** After this store's own write to the command table. */
  commandsChanged(): void {
    if (this.#commands.size > 0)
      queueMicrotask(() => {
        this.#poll(true);
      });
  }

  #sequence(sessionId: string): number {
    return (this.#lastSequence.get(sessionId) as number | undefined) ?? 0;
  }

  #arm(): void {
    this.#timer ??= setInterval(() => {
      this.#poll(false);
    }, this.everyMs).unref();
  }

  #disarmWhenIdle(): void {
    const idle = this.#sessions.size === 0 && this.#commands.size === 0 && this.#log.size === 0;
    if (!idle || this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #poll(force: boolean): void {
    try {
      const version = this.#version.get() as number;
      if (version === this.#dataVersion && !force) return;
      this.#dataVersion = version;
      // another connection committed something: a lease renewal too, so "read again"
      for (const fn of [...this.#log]) fn();
      for (const [id, watched] of [...this.#sessions]) {
        const last = this.#sequence(id);
        if (last === watched.last) continue;
        watched.last = last;
        for (const fn of [...watched.fns]) fn();
      }
      if (this.#commands.size === 0) return;
      const changed = this.#commandsChanged.get() as number;
      if (changed === this.#commandsSeen) return;
      this.#commandsSeen = changed;
      for (const fn of [...this.#commands]) fn();
    } catch {
      // the store is closing or the file is unreadable: its readers see the failure themselves
    }
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    // woken once more: a follower reads again and finds the store closed
    for (const w of [...this.#sessions.values()]) for (const fn of [...w.fns]) fn();
    for (const fn of [...this.#commands]) fn();
    for (const fn of [...this.#log]) fn();
    this.#sessions.clear();
    this.#commands.clear();
    this.#log.clear();
  }
}
