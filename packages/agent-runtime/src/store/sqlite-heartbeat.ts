/**
 * The heartbeat of a SQLite store's leases. Renewal follows write health, as the PostgreSQL
 * store's does (ADR-0048): each renewal commits in the transaction of a probe write like an
 * append's (rolled back to its savepoint), so a store that cannot write (a read-only or full
 * file, one removed or replaced under it) renews nothing and its leases lapse within one lease
 * period. Each tick also treats a lease not confirmed before its local deadline as lost, and
 * tells the listeners of every lease found lost.
 */
import type Database from 'better-sqlite3';
import type { SqliteLeases } from './sqlite-lease.js';

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
