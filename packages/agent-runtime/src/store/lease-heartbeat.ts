/**
 * The heartbeat of a store's leases, whichever database holds them. Renewal follows write
 * health (ADR-0048): the store's `renew` commits a renewal only after a probe write succeeded,
 * so a runtime that cannot write renews nothing and its leases lapse within one lease period
 * instead of blocking every other runtime for as long as it lives. Each tick also treats a
 * lease whose renewal could not be confirmed before its local deadline as lost, and tells the
 * listeners of every lease found lost.
 */
import { performance } from 'node:perf_hooks';
import type { RuntimeError } from '../errors.js';
import { leaseLost } from './postgres-lease.js';

/** Told once per session whose lease this store lost while it held it. */
export type LeaseLostListener = (sessionId: string, error: RuntimeError) => void;

/** What the heartbeat needs of a store's leases (PostgreSQL's `Leases`, `SqliteLeases`). */
export interface HeartbeatLeases {
  readonly leaseMs: number;
  readonly size: number;
  /** The held leases whose local deadline passed, now lost. */
  expired(): string[];
  /** The earliest local deadline of a held lease (monotonic ms), if any. */
  nextDeadline(): number | undefined;
}

export class LeaseHeartbeat {
  readonly #listeners = new Set<LeaseLostListener>();
  #timer: NodeJS.Timeout | undefined;
  /** Fires at the earliest local deadline: a lease is lost there, not at the next tick. */
  #deadline: NodeJS.Timeout | undefined;
  /** Start (local monotonic ms) of the renewal in flight, if any. */
  #renewingSince: number | undefined;

  /**
   * `renew` probes a write, then renews every held lease; resolves with the ones found lost.
   * Ticks every third of the lease period, at least every `minTickMs`.
   */
  constructor(
    private readonly leases: HeartbeatLeases,
    private readonly renew: () => Promise<string[]>,
    private readonly minTickMs: number,
  ) {}

  start(): void {
    const every = Math.max(this.minTickMs, Math.floor(this.leases.leaseMs / 3));
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
    this.renew()
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
}
