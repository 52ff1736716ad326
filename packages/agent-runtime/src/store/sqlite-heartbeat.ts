/**
 * The heartbeat of a SQLite store's leases. Renewal follows write health, as the PostgreSQL
 * store's does (ADR-0048): each renewal commits in the transaction of a probe write like an
 * append's (rolled back to its savepoint), so a store that cannot write (a read-only or full
 * file, one removed or replaced under it) renews nothing and its leases lapse within one lease
 * period. Each tick also treats a lease not confirmed before its local deadline as lost, and
 * tells the listeners of every lease found lost.
 */
import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import type { RuntimeError } from '../errors.js';
import { leaseLost } from './postgres-lease.js';
import type { SqliteLeases } from './sqlite-lease.js';

/** Told once per session whose lease this store lost while it held it. */
export type LeaseLostListener = (sessionId: string, error: RuntimeError) => void;

/** Thrown to roll the probe back; never leaves `renewal`. */
class Probed extends Error {}

/**
 * A transaction that renews `leases` after a probe write (a session row and an event row,
 * undone at once); throws what the probe or the commit threw. `owner` is the store's own UUID.
 */
export function renewal(
  db: Database.Database,
  leases: SqliteLeases,
): Database.Transaction<(since: number) => string[]> {
  const id = `relvo-write-probe-${leases.owner}`;
  const session = db.prepare(
    `INSERT INTO sessions (session_id, state, default_profile, opened_at, updated_at, last_sequence)
     VALUES (?, 'closed', '', '', '', 1)`,
  );
  const row = db.prepare(
    `INSERT INTO event_rows (session_id, first_sequence, last_sequence, envelopes)
     VALUES (?, 1, 1, '[]')`,
  );
  // nested in the renewal: a savepoint, rolled back by the throw
  const probe = db.transaction(() => {
    session.run(id);
    row.run(id);
    throw new Probed();
  });
  return db.transaction((since: number) => {
    try {
      probe();
    } catch (error) {
      if (!(error instanceof Probed)) throw error;
    }
    return leases.renew(since);
  });
}

export class SqliteHeartbeat {
  readonly #listeners = new Set<LeaseLostListener>();
  #timer: NodeJS.Timeout | undefined;
  /** Fires at the earliest local deadline: a lease is lost there, not at the next tick. */
  #deadline: NodeJS.Timeout | undefined;

  constructor(
    private readonly leases: SqliteLeases,
    /** Renews (after the probe) in one write transaction; throws when it could not. */
    private readonly renew: () => string[],
  ) {}

  /** Ticks every third of the lease period. */
  start(): void {
    const every = Math.max(20, Math.floor(this.leases.leaseMs / 3));
    this.#timer ??= setInterval(() => {
      this.#tick();
    }, every).unref();
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    if (this.#deadline !== undefined) clearTimeout(this.#deadline);
    this.#timer = undefined;
    this.#deadline = undefined;
    this.#listeners.clear();
  }

  onLost(listener: LeaseLostListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #tell(sessionIds: readonly string[]): void {
    for (const sessionId of sessionIds) {
      for (const listener of [...this.#listeners]) {
        try {
          listener(sessionId, leaseLost());
        } catch {
          // a listener's failure is its own; the others are still told
        }
      }
    }
  }

  #expire(): void {
    this.#tell(this.leases.expired());
    if (this.#deadline !== undefined) clearTimeout(this.#deadline);
    this.#deadline = undefined;
    const next = this.leases.nextDeadline();
    if (next === undefined || this.#timer === undefined) return;
    this.#deadline = setTimeout(
      () => {
        this.#expire();
      },
      Math.max(0, Math.ceil(next - performance.now())),
    ).unref();
  }

  #tick(): void {
    this.#expire();
    if (this.leases.size === 0) return;
    let lost: string[];
    try {
      lost = this.renew();
    } catch {
      // not fatal: leases not renewed reach their local deadline and are lost then
      return;
    }
    this.#tell(lost);
    this.#expire();
  }
}
