/**
 * Session leases of the SQLite store (ADR-0053), the contract of the PostgreSQL store's: one
 * owner per session at a time; every acquisition bumps the session's fencing token; an append
 * checks owner, token and expiry and extends the lease in its own `BEGIN IMMEDIATE`
 * transaction. SQLite runs one write transaction at a time over the whole file, so the check
 * and the write cannot interleave with another process's: a store whose lease lapsed or was
 * taken over is refused (`lease_lost`) and stays refused for the session.
 *
 * Expiry is measured on the machine's clock (sqlite-clock.ts). Besides it each held lease has a
 * local deadline (monotonic, nine tenths of the lease period after the statement that last
 * confirmed it), past which it is treated as lost here even if nothing could say so.
 */
import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import { RuntimeError } from '../errors.js';
import type { SessionOwner } from './commands.js';
import { leaseLost } from './postgres-lease.js';
import type { MachineClock } from './sqlite-clock.js';

interface LeaseRow {
  readonly session_id: string;
  readonly owner: string;
  readonly token: number;
  readonly expires_at: number;
  readonly clock: string;
  readonly holder: string | null;
}

/** What an append changed about this store's leases; applied only after its commit. */
export interface LeaseChange {
  readonly sessionId: string;
  /** The token now held, or undefined when the lease was released. */
  readonly token: number | undefined;
  /** Local monotonic ms at which the transaction confirming the lease started. */
  readonly since: number;
}

export function sessionLeased(): RuntimeError {
  return new RuntimeError(
    'store_unavailable',
    'session_leased',
    'another runtime holds the lease on this session',
  );
}

export class SqliteLeases {
  readonly #held = new Map<string, number>();
  readonly #lost = new Set<string>();
  readonly #until = new Map<string, number>();
  readonly #select: Database.Statement;
  readonly #all: Database.Statement;
  readonly #upsert: Database.Statement;
  readonly #extend: Database.Statement;
  readonly #end: Database.Statement;
  readonly #takeOverTx: Database.Transaction<(sessionId: string) => number | undefined>;

  constructor(
    db: Database.Database,
    readonly owner: string,
    readonly leaseMs: number,
    private readonly clock: MachineClock,
  ) {
    this.#select = db.prepare('SELECT * FROM leases WHERE session_id = ?');
    this.#all = db.prepare('SELECT * FROM leases');
    this.#upsert = db.prepare(
      `INSERT INTO leases (session_id, owner, token, expires_at, clock, holder)
       VALUES (@sessionId, @owner, @token, @expiresAt, @clock, @holder)
       ON CONFLICT (session_id) DO UPDATE SET owner = excluded.owner, token = excluded.token,
         expires_at = excluded.expires_at, clock = excluded.clock, holder = excluded.holder`,
    );
    this.#extend = db.prepare('UPDATE leases SET expires_at = ? WHERE session_id = ?');
    // 0 has passed on every clock: the next owner need not wait
    this.#end = db.prepare(
      'UPDATE leases SET expires_at = 0 WHERE session_id = ? AND owner = ? AND token = ?',
    );
    this.#takeOverTx = db.transaction((sessionId: string) => this.#acquire(sessionId));
  }

  /** A live lease: of this boot's clock, unexpired, its holder's process not known gone. */
  #live(row: LeaseRow | undefined): row is LeaseRow {
    return (
      row !== undefined &&
      row.clock === this.clock.tag &&
      row.expires_at > this.clock.now() &&
      (row.owner === this.owner || !this.clock.gone(row.holder))
    );
  }

  #row(sessionId: string): LeaseRow | undefined {
    return this.#select.get(sessionId) as LeaseRow | undefined;
  }

  /** Inside a write transaction: takes the lease when free or lapsed, with the next token. */
  #acquire(sessionId: string): number | undefined {
    const row = this.#row(sessionId);
    if (this.#live(row) && row.owner !== this.owner) return undefined;
    const token = (row?.token ?? 0) + 1;
    this.#upsert.run({
      sessionId,
      owner: this.owner,
      token,
      expiresAt: this.clock.now() + this.leaseMs,
      clock: this.clock.tag,
      holder: this.clock.holder ?? null,
    });
    return token;
  }

  /** Inside a write transaction: the lease is this store's, with the token it holds. */
  #confirm(sessionId: string, token: number): void {
    const row = this.#row(sessionId);
    if (this.#live(row) && row.owner === this.owner && row.token === token) return;
    this.#lose(sessionId);
    throw leaseLost();
  }

  /**
   * Inside an append's transaction: checks this store still owns the session and extends the
   * lease, or takes a free one. Throws `lease_lost` or `session_leased`.
   */
  fence(sessionId: string): LeaseChange {
    if (this.#lost.has(sessionId)) throw leaseLost();
    const since = performance.now();
    const token = this.#held.get(sessionId);
    if (token === undefined) {
      const taken = this.#acquire(sessionId);
      if (taken === undefined) throw sessionLeased();
      return { sessionId, token: taken, since };
    }
    this.#confirm(sessionId, token);
    this.#extend.run(this.clock.now() + this.leaseMs, sessionId);
    return { sessionId, token, since };
  }

  /** Inside a write transaction (a command's): the lease is held here now, or a throw as `fence`. */
  check(sessionId: string): void {
    if (this.#lost.has(sessionId)) throw leaseLost();
    const token = this.#held.get(sessionId);
    if (token === undefined) throw sessionLeased();
    this.#confirm(sessionId, token);
  }

  /**
   * Inside a write transaction: no other store took the session since this one last held it
   * (the lease row still names this store, live, lapsed or released). What this store accepted
   * it may still settle then: a `close` ends the lease before its command is settled.
   */
  lastHeldHere(sessionId: string): boolean {
    return this.#row(sessionId)?.owner === this.owner;
  }

  /** Inside the append that closes the session: the next owner need not wait for expiry. */
  release(change: LeaseChange): LeaseChange {
    this.#end.run(change.sessionId, this.owner, change.token);
    return { sessionId: change.sessionId, token: undefined, since: change.since };
  }

  #lose(sessionId: string): void {
    this.#held.delete(sessionId);
    this.#until.delete(sessionId);
    this.#lost.add(sessionId);
  }

  #confirmed(sessionId: string, since: number): void {
    const until = since + this.leaseMs - Math.floor(this.leaseMs / 10);
    this.#until.set(sessionId, Math.max(this.#until.get(sessionId) ?? until, until));
  }

  /** After a commit. */
  apply(changes: readonly LeaseChange[]): void {
    for (const c of changes) {
      if (c.token === undefined) {
        this.#held.delete(c.sessionId);
        this.#until.delete(c.sessionId);
      } else if (!this.#lost.has(c.sessionId)) {
        if (this.#held.get(c.sessionId) !== c.token) this.#until.delete(c.sessionId);
        this.#held.set(c.sessionId, c.token);
        this.#confirmed(c.sessionId, c.since);
      }
    }
  }

  /** An explicit takeover: a lease this store lost may be taken again, with a new token. */
  takeOver(sessionId: string): boolean {
    if (this.#held.has(sessionId)) return true;
    const since = performance.now();
    const token = this.#takeOverTx.immediate(sessionId);
    if (token === undefined) return false;
    this.#lost.delete(sessionId);
    this.#held.set(sessionId, token);
    this.#until.delete(sessionId);
    this.#confirmed(sessionId, since);
    return true;
  }

  /**
   * Inside a write transaction: extends every lease this store still holds; returns the ones
   * found lapsed or taken over meanwhile, now lost.
   */
  renew(since: number): string[] {
    const lost: string[] = [];
    for (const [sessionId, token] of [...this.#held]) {
      const row = this.#row(sessionId);
      if (this.#live(row) && row.owner === this.owner && row.token === token) {
        this.#extend.run(this.clock.now() + this.leaseMs, sessionId);
        this.#confirmed(sessionId, since);
      } else {
        this.#lose(sessionId);
        lost.push(sessionId);
      }
    }
    return lost;
  }

  /**
   * The runtime writes nothing more for these sessions: they are lost here, and their leases
   * ended now (best effort: one not ended lapses unrenewed).
   */
  giveUp(sessionIds: Iterable<string>): void {
    const given = [...sessionIds].flatMap((id) => {
      const token = this.#held.get(id);
      this.#lose(id);
      return token === undefined ? [] : [[id, token] as const];
    });
    try {
      for (const [id, token] of given) this.#end.run(id, this.owner, token);
    } catch {
      // the file is busy or gone: the leases lapse on their own
    }
  }

  /** On close: the sessions become free at once rather than after expiry. */
  releaseAll(): void {
    this.giveUp([...this.#held.keys()]);
  }

  /** The earliest local deadline of a held lease, if any. */
  nextDeadline(): number | undefined {
    let next: number | undefined;
    for (const until of this.#until.values()) if (next === undefined || until < next) next = until;
    return next;
  }

  /** The held leases whose local deadline passed, now lost here. */
  expired(): string[] {
    const now = performance.now();
    const lapsed = [...this.#until].filter(([, until]) => until <= now).map(([id]) => id);
    for (const sessionId of lapsed) this.#lose(sessionId);
    return lapsed;
  }

  get size(): number {
    return this.#held.size;
  }

  #owner(row: LeaseRow): SessionOwner {
    return { owner: row.owner, self: row.owner === this.owner };
  }

  /** The live holder of each session's lease, as the table says now. */
  owners(): Map<string, SessionOwner> {
    const out = new Map<string, SessionOwner>();
    for (const row of this.#all.iterate() as IterableIterator<LeaseRow>) {
      if (this.#live(row)) out.set(row.session_id, this.#owner(row));
    }
    return out;
  }

  ownerOf(sessionId: string): SessionOwner | undefined {
    const row = this.#row(sessionId);
    return this.#live(row) ? this.#owner(row) : undefined;
  }
}
