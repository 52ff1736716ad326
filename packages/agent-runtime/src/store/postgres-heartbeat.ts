/**
 * The heartbeat of a PostgreSQL store's leases. Renewal follows write health: every renewal
 * comes after a probe write that succeeded, so a runtime that cannot write (a revoked grant, a
 * read-only server, a lost database) renews nothing and its leases lapse within one lease
 * period instead of blocking every other runtime for as long as it lives. Each tick also treats
 * a lease whose renewal could not be confirmed before its local deadline as lost, and tells the
 * listeners of every lease found lost.
 */
import { performance } from 'node:perf_hooks';
import type { PoolClient } from 'pg';
import type { RuntimeError } from '../errors.js';
import { leaseLost, type Leases } from './postgres-lease.js';

/** Told once per session whose lease this store lost while it held it. */
export type LeaseLostListener = (sessionId: string, error: RuntimeError) => void;

type WithClient = <T>(fn: (client: PoolClient) => Promise<T>) => Promise<T>;

/**
 * A write like an append's (a session row and an event row) in a transaction rolled back at
 * once, in one round trip: it fails where an append would for want of grants or a writable
 * server, and leaves nothing. `owner` is the store's own UUID, never outside input.
 */
function probeWrite(client: PoolClient, schema: string, owner: string): Promise<unknown> {
  const id = `'relvo-write-probe-${owner}'`;
  return client.query(
    `BEGIN;
     INSERT INTO ${schema}.sessions
       (session_id, state, default_profile, opened_at, updated_at, last_sequence)
       VALUES (${id}, 'closed', '', '', '', 1);
     INSERT INTO ${schema}.events
       (session_id, sequence, event_id, run_id, occurred_at, wire_version, type, payload)
       VALUES (${id}, 1, ${id}, NULL, '', '', 'probe', '{}');
     ROLLBACK`,
  );
}

export class LeaseHeartbeat {
  readonly #listeners = new Set<LeaseLostListener>();
  #timer: NodeJS.Timeout | undefined;
  /** Fires at the earliest local deadline: a lease is lost there, not at the next tick. */
  #deadline: NodeJS.Timeout | undefined;
  /** Start (local monotonic ms) of the renewal in flight, if any. */
  #renewingSince: number | undefined;

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
    const now = performance.now();
    // one renewal at a time; one that hangs past a lease period no longer holds the next back
    const since = this.#renewingSince;
    if (since !== undefined && now - since < this.leases.leaseMs) return;
    this.#renewingSince = now;
    this.withClient((c) => this.#probeAndRenew(c))
      .then(
        (lost) => {
          this.#tell(lost);
          this.#expire();
        },
        // not fatal: leases not renewed reach their local deadline and are lost then
        () => undefined,
      )
      .finally(() => {
        if (this.#renewingSince === now) this.#renewingSince = undefined;
      });
  }

  async #probeAndRenew(client: PoolClient): Promise<string[]> {
    try {
      await probeWrite(client, this.schema, this.leases.owner);
    } catch (error) {
      // a failed statement leaves the transaction open on this connection
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    return this.leases.renew(client);
  }
}
