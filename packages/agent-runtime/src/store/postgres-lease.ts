/**
 * Session leases of the PostgreSQL store: one owner per session at a time, decided by the
 * database's clock alone (no host clock is compared with another). Every acquisition bumps the
 * session's fencing token; an append checks owner, token and expiry in its own transaction, so a
 * runtime whose lease lapsed (paused, partitioned, killed) can never interleave with the next
 * owner. A lease once lost stays lost for this store: its view of the session is stale.
 *
 * Renewal follows write health: besides the database's expiry, each lease has a local deadline
 * (this host's monotonic clock, from the start of the statement that last confirmed it, plus
 * nine tenths of the lease period). Past it the lease is treated as lost here even when no
 * statement could say so: the session's provider is stopping before the database can hand the
 * session to another runtime.
 */
import { performance } from 'node:perf_hooks';
import type { PoolClient } from 'pg';
import { RuntimeError } from '../errors.js';

type Queryable = Pick<PoolClient, 'query'>;

/** What an append changed about this store's leases; applied only after its commit. */
export interface LeaseChange {
  readonly sessionId: string;
  /** The token now held, or undefined when the lease was released. */
  readonly token: string | undefined;
  /** Local monotonic ms at which the statement confirming the lease started. */
  readonly since: number;
}

/** A lease this store gave up, to be ended on the server when it can be (best effort). */
export interface HeldLease {
  readonly sessionId: string;
  readonly token: string;
}

const localNow = (): number => performance.now();

export function leaseLost(): RuntimeError {
  return new RuntimeError(
    'store_unavailable',
    'lease_lost',
    "this runtime's lease on the session lapsed or was taken over; its appends are refused",
  );
}

function leased(): RuntimeError {
  return new RuntimeError(
    'store_unavailable',
    'session_leased',
    'another runtime holds the lease on this session',
  );
}

export class Leases {
  readonly #held = new Map<string, string>();
  readonly #lost = new Set<string>();
  /** Local deadline of each held lease (see the header). */
  readonly #until = new Map<string, number>();
  readonly #table: string;

  constructor(
    schema: string,
    readonly owner: string,
    readonly leaseMs: number,
  ) {
    this.#table = `${schema}.leases`;
  }

  /** Takes the lease when it is free or lapsed; undefined when a live owner holds it. */
  async acquire(q: Queryable, sessionId: string): Promise<string | undefined> {
    const result = await q.query<{ token: string }>(
      `INSERT INTO ${this.#table} AS l (session_id, owner, token, expires_at)
       VALUES ($1, $2, 1, clock_timestamp() + $3 * interval '1 millisecond')
       ON CONFLICT (session_id) DO UPDATE
         SET owner = EXCLUDED.owner, token = l.token + 1, expires_at = EXCLUDED.expires_at
         WHERE l.expires_at <= clock_timestamp()
       RETURNING token::text AS token`,
      [sessionId, this.owner, this.leaseMs],
    );
    return result.rows[0]?.token;
  }

  /**
   * Inside an append's transaction: checks this store still owns the session and extends the
   * lease (locking its row until commit), or takes a free one. Throws `lease_lost` or
   * `session_leased`.
   */
  async fence(q: Queryable, sessionId: string): Promise<LeaseChange> {
    if (this.#lost.has(sessionId)) throw leaseLost();
    const since = localNow();
    const token = this.#held.get(sessionId);
    if (token === undefined) {
      const taken = await this.acquire(q, sessionId);
      if (taken === undefined) throw leased();
      return { sessionId, token: taken, since };
    }
    const result = await q.query(
      `UPDATE ${this.#table} SET expires_at = clock_timestamp() + $4 * interval '1 millisecond'
       WHERE session_id = $1 AND owner = $2 AND token = $3 AND expires_at > clock_timestamp()`,
      [sessionId, this.owner, token, this.leaseMs],
    );
    if (result.rowCount !== 1) {
      this.#lose(sessionId);
      throw leaseLost();
    }
    return { sessionId, token, since };
  }

  /** Inside the append that closes the session: the next owner need not wait for expiry. */
  async release(q: Queryable, change: LeaseChange): Promise<LeaseChange> {
    await q.query(
      `UPDATE ${this.#table} SET expires_at = clock_timestamp()
       WHERE session_id = $1 AND owner = $2 AND token = $3`,
      [change.sessionId, this.owner, change.token],
    );
    return { sessionId: change.sessionId, token: undefined, since: change.since };
  }

  /**
   * After an append failed for another reason (its connection was ended, say): whether this store
   * still owns the session. A lease found gone is lost for good, as in `fence`.
   */
  async confirm(q: Queryable, sessionId: string): Promise<boolean> {
    const token = this.#held.get(sessionId);
    if (token === undefined) return !this.#lost.has(sessionId);
    const result = await q.query(
      `SELECT 1 FROM ${this.#table} WHERE session_id = $1 AND owner = $2 AND token = $3
       AND expires_at > clock_timestamp()`,
      [sessionId, this.owner, token],
    );
    if (result.rowCount === 1) return true;
    this.#lose(sessionId);
    return false;
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

  /**
   * Inside a transaction that must happen under this store's lease (a command accepted or
   * settled): true while the lease is this store's and unexpired, its row locked until commit so
   * no takeover can interleave. Never takes a free lease.
   */
  async holds(q: Queryable, sessionId: string): Promise<boolean> {
    const token = this.#held.get(sessionId);
    if (token === undefined) return false;
    const result = await q.query(
      `SELECT 1 FROM ${this.#table} WHERE session_id = $1 AND owner = $2 AND token = $3
       AND expires_at > clock_timestamp() FOR SHARE`,
      [sessionId, this.owner, token],
    );
    return result.rowCount === 1;
  }

  /** The token of the lease this store holds on the session, if it holds one. */
  tokenOf(sessionId: string): string | undefined {
    return this.#held.get(sessionId);
  }

  /**
   * Inside a transaction: whether the session's lease row still carries `token` (nobody took the
   * lease since, whether it is live or was ended by a close); locks the row until commit.
   */
  async unchangedSince(q: Queryable, sessionId: string, token: string): Promise<boolean> {
    const result = await q.query(
      `SELECT 1 FROM ${this.#table} WHERE session_id = $1 AND owner = $2 AND token = $3 FOR SHARE`,
      [sessionId, this.owner, token],
    );
    return result.rowCount === 1;
  }

  /** The live holder of each lease (database clock), of one session or of all. */
  async holders(q: Queryable, sessionId?: string): Promise<Map<string, string>> {
    const result = await q.query<{ session_id: string; owner: string }>(
      `SELECT session_id, owner FROM ${this.#table} WHERE expires_at > clock_timestamp()
       AND ($1::text IS NULL OR session_id = $1)`,
      [sessionId ?? null],
    );
    return new Map(result.rows.map((r) => [r.session_id, r.owner]));
  }

  /** After a commit. */
  apply(changes: readonly LeaseChange[]): void {
    for (const c of changes) {
      if (c.token === undefined) {
        this.#held.delete(c.sessionId);
        this.#until.delete(c.sessionId);
      } else if (!this.#lost.has(c.sessionId)) {
        // (lost or given up while the append was in flight stays lost: nobody renews it)
        // a new token starts a new deadline; the same token only extends it
        if (this.#held.get(c.sessionId) !== c.token) this.#until.delete(c.sessionId);
        this.#held.set(c.sessionId, c.token);
        this.#confirmed(c.sessionId, c.since);
      }
    }
  }

  /**
   * The runtime will write nothing more for these sessions (their logs failed for good): this
   * store stops renewing their leases and treats them as lost. Returns the ones it held, for
   * `releaseGivenUp`.
   */
  giveUp(sessionIds: Iterable<string>): HeldLease[] {
    const given: HeldLease[] = [];
    for (const sessionId of sessionIds) {
      const token = this.#held.get(sessionId);
      if (token !== undefined) given.push({ sessionId, token });
      this.#lose(sessionId);
    }
    return given;
  }

  /** Ends given-up leases on the server now, so the next owner need not wait for expiry. */
  async releaseGivenUp(q: Queryable, given: readonly HeldLease[]): Promise<void> {
    if (given.length === 0) return;
    await q.query(
      `UPDATE ${this.#table} AS l SET expires_at = clock_timestamp()
       FROM unnest($2::text[], $3::bigint[]) AS g(session_id, token)
       WHERE l.session_id = g.session_id AND l.token = g.token AND l.owner = $1
         AND l.expires_at > clock_timestamp()`,
      [this.owner, given.map((g) => g.sessionId), given.map((g) => g.token)],
    );
  }

  /** The earliest local deadline of a held lease, if any. */
  nextDeadline(): number | undefined {
    let next: number | undefined;
    for (const until of this.#until.values()) if (next === undefined || until < next) next = until;
    return next;
  }

  /** The held leases whose local deadline passed, now lost here (see the header). */
  expired(): string[] {
    const now = localNow();
    const lapsed = [...this.#until].filter(([, until]) => until <= now).map(([id]) => id);
    for (const sessionId of lapsed) this.#lose(sessionId);
    return lapsed;
  }

  /** An explicit takeover: a lease this store lost may be taken again, with a new token. */
  async takeOver(q: Queryable, sessionId: string): Promise<boolean> {
    if (this.#held.has(sessionId)) return true;
    const since = localNow();
    const token = await this.acquire(q, sessionId);
    if (token === undefined) return false;
    this.#lost.delete(sessionId);
    this.#held.set(sessionId, token);
    this.#until.delete(sessionId);
    this.#confirmed(sessionId, since);
    return true;
  }

  get size(): number {
    return this.#held.size;
  }

  /**
   * Extends every lease this store still holds (never one it gave up); returns the ones found
   * lapsed or taken over meanwhile, now lost.
   */
  async renew(q: Queryable): Promise<string[]> {
    if (this.#held.size === 0) return [];
    const before = new Map(this.#held);
    const since = localNow();
    const result = await q.query<{ session_id: string; token: string }>(
      `UPDATE ${this.#table} SET expires_at = clock_timestamp() + $2 * interval '1 millisecond'
       WHERE owner = $1 AND session_id = ANY($3::text[]) AND expires_at > clock_timestamp()
       RETURNING session_id, token::text AS token`,
      [this.owner, this.leaseMs, [...before.keys()]],
    );
    const alive = new Set(result.rows.map((r) => `${r.session_id}\u0000${r.token}`));
    const lost: string[] = [];
    for (const [sessionId, token] of before) {
      if (this.#held.get(sessionId) !== token) continue;
      if (alive.has(`${sessionId}\u0000${token}`)) {
        this.#confirmed(sessionId, since);
        continue;
      }
      this.#lose(sessionId);
      lost.push(sessionId);
    }
    return lost;
  }

  /** On close: the sessions become free at once rather than after expiry. */
  async releaseAll(q: Queryable): Promise<void> {
    if (this.#held.size === 0) return;
    await q.query(
      `UPDATE ${this.#table} SET expires_at = clock_timestamp()
       WHERE owner = $1 AND expires_at > clock_timestamp()`,
      [this.owner],
    );
    this.#held.clear();
    this.#until.clear();
  }
}
