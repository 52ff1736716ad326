/**
 * The heartbeat of a PostgreSQL store's leases. Renewal follows write health: a store whose
 * last append failed for a reason other than its leases (a revoked grant, a read-only server, a
 * broken connection) renews nothing until a probe write succeeds, so the leases of a runtime that
 * cannot write lapse within one lease period instead of blocking every other runtime for as long
 * as it lives. Each tick also treats a lease whose renewal could not be confirmed before its
 * local deadline as lost, and tells the listeners of every lease found lost.
 */
import { performance } from 'node:perf_hooks';
import type { PoolClient } from 'pg';
import type { RuntimeError } from '../errors.js';
import { leaseLost, type Leases } from './postgres-lease.js';

/** Told once per session whose lease this store lost while it held it. */
export type LeaseLostListener = (sessionId: string, error: RuntimeError) => void;

type WithClient = <T>(fn: (client: PoolClient) => Promise<T>) => Promise<T>;

/**
 * A write like an append's (a session row and an event row), inside a transaction the caller
 * rolls back: it fails where an append would for want of grants, space or a writable server,
 * and leaves nothing.
 */
async function probeWrite(client: PoolClient, schema: string, owner: string): Promise<void> {
  const id = `relvo-write-probe-${owner}`;
  await client.query(
    `INSERT INTO ${schema}.sessions
       (session_id, state, default_profile, opened_at, updated_at, last_sequence)
     VALUES ($1, 'closed', '', '', '', 1)`,
    [id],
  );
  await client.query(
    `INSERT INTO ${schema}.events
       (session_id, sequence, event_id, run_id, occurred_at, wire_version, type, payload)
     VALUES ($1, 1, $1, NULL, '', '', 'probe', '{}')`,
    [id],
  );
}

export class LeaseHeartbeat {
  readonly #listeners = new Set<LeaseLostListener>();
  #timer: NodeJS.Timeout | undefined;
  /** Start (local monotonic ms) of the renewal in flight, if any. */
  #renewingSince: number | undefined;
  #writeFailed = false;

  constructor(
    private readonly leases: Leases,
    private readonly schema: string,
    private readonly withClient: WithClient,
  ) {}

  /** Ticks every third of the lease period (at least every 50 ms). */
  start(): void {
    const every = Math.max(50, Math.floor(this.leases.leaseMs / 3));
    this.#timer ??= setInterval(() => {
      this.#tick();
    }, every).unref();
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#listeners.clear();
  }

  onLost(listener: LeaseLostListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** An append failed for a reason other than its leases: renew only after a probe write. */
  writeFailed(): void {
    this.#writeFailed = true;
  }

  writeSucceeded(): void {
    this.#writeFailed = false;
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

  #tick(): void {
    this.#tell(this.leases.expired());
    if (this.leases.size === 0) return;
    const now = performance.now();
    // one renewal at a time; one that hangs past a lease period no longer holds the next back
    const since = this.#renewingSince;
    if (since !== undefined && now - since < this.leases.leaseMs) return;
    this.#renewingSince = now;
    this.withClient((c) => (this.#writeFailed ? this.#probeAndRenew(c) : this.leases.renew(c)))
      .then(
        (lost) => {
          this.#tell(lost);
        },
        // not fatal: leases not renewed reach their local deadline and are lost then
        () => undefined,
      )
      .finally(() => {
        if (this.#renewingSince === now) this.#renewingSince = undefined;
      });
  }

  async #probeAndRenew(client: PoolClient): Promise<string[]> {
    // the probe's own transaction, rolled back: a renewal counts only once it committed
    await client.query('BEGIN');
    try {
      await probeWrite(client, this.schema, this.leases.owner);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
    }
    this.#writeFailed = false;
    return this.leases.renew(client);
  }
}
