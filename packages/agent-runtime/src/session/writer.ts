import { isoAt, systemClock, type RuntimeClock } from '../clock.js';
import type { EventEnvelope } from '../envelope.js';
import { isRuntimeError, RuntimeError } from '../errors.js';
import type { IdFactory } from '../ids.js';
import type { EventStore } from '../store/types.js';
import type { SessionLog } from './log.js';

/** Sees every batch once it is durable, in commit order (the runtime's telemetry). */
export interface BatchObserver {
  /** Never throws; `appendSeconds` is how long the store took to append the batch. */
  committed(batch: readonly EventEnvelope[], appendSeconds: number): void;
}

interface Deferred {
  readonly promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // a durability wait nobody awaited must not become an unhandled rejection
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** 10000-01-01T00:00:00Z: from then on toISOString() writes six-digit years. */
const ISO_YEAR_10000_MS = 253_402_300_800_000;

/** Resolves in the event loop's check phase: after the I/O callbacks of this turn of the loop. */
function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(resolve);
  });
}

/**
 * The runtime's single writer. Envelopes get their sequence synchronously (so a provider's
 * synchronous `emit` is ordered at once) and are appended in batches: everything staged in one
 * macrotask (a chunk of provider output and whatever it triggers) goes to the store in one
 * transaction. Live listeners see an envelope only after its batch is durable.
 */
export class EventWriter {
  // two parallel arrays, not an object per envelope: this runs once per provider event
  private pending: EventEnvelope[] = [];
  private pendingLogs: SessionLog[] = [];
  private pendingDone: Deferred | undefined;
  private inflight: Promise<void> | undefined;
  private loop: Promise<void> | undefined;
  private stampMs = Number.NaN;
  private stampIso = '';
  // the system clock read directly: a call through the clock object per envelope showed
  private readonly systemTime: boolean;

  constructor(
    readonly store: EventStore,
    readonly clock: RuntimeClock,
    readonly ids: IdFactory,
    /** Absent unless the host asked for telemetry: then one check per batch, nothing more. */
    private readonly observer?: BatchObserver,
  ) {
    this.systemTime = clock === systemClock;
  }

  /** The clock's time as an ISO string; one Date per millisecond, not one per envelope. */
  stamp(): string {
    const ms = this.systemTime ? Date.now() : this.clock.now();
    if (ms !== this.stampMs) {
      this.stampIso = isoAt({ now: () => ms });
      this.stampMs = ms;
    }
    return this.stampIso;
  }

  /** The last stamp is `toISOString()` of years 0000–9999: the timestamp schema's form. */
  get stampCanonical(): boolean {
    return this.stampMs >= 0 && this.stampMs < ISO_YEAR_10000_MS;
  }

  enqueue(log: SessionLog, envelope: EventEnvelope): void {
    this.pending.push(envelope);
    this.pendingLogs.push(log);
    this.pendingDone ??= deferred();
    this.kick();
  }

  private kick(): void {
    this.loop ??= this.run().finally(() => {
      this.loop = undefined;
      if (this.pending.length > 0) this.kick();
    });
  }

  /** Resolves when everything enqueued so far is durable. */
  flushed(): Promise<void> {
    if (this.pendingDone !== undefined) return this.pendingDone.promise;
    return this.inflight ?? Promise.resolve();
  }

  private async run(): Promise<void> {
    // let the current macrotask's burst (and the microtasks it queued) land in one transaction
    await nextMacrotask();
    while (this.pending.length > 0) {
      const batch = this.pending;
      const logs = this.pendingLogs;
      const done = this.pendingDone ?? deferred();
      this.pending = [];
      this.pendingLogs = [];
      this.pendingDone = undefined;
      this.inflight = done.promise;
      try {
        const started = this.observer === undefined ? 0 : performance.now();
        await this.store.append(batch);
        for (let i = 0; i < batch.length; i++)
          (logs[i] as SessionLog).committed(batch[i] as EventEnvelope);
        done.resolve();
        this.observer?.committed(batch, (performance.now() - started) / 1000);
      } catch (cause) {
        const error = isRuntimeError(cause)
          ? cause
          : new RuntimeError('store_unavailable', 'store_io', 'the event store refused an append', {
              cause,
            });
        for (const log of new Set(logs)) log.fail(error);
        done.reject(error);
      } finally {
        this.inflight = undefined;
      }
    }
  }
}
