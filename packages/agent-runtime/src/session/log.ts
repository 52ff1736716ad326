import { WIRE_VERSION } from '@relvo-labs/agent-provider';
import { isoAt, type RuntimeClock } from '../clock.js';
import { eventEnvelopeSchema, type EventEnvelope, type EventPayload } from '../envelope.js';
import { isRuntimeError, RuntimeError } from '../errors.js';
import type { IdFactory } from '../ids.js';
import type { EventStore } from '../store/types.js';

/** A live reader of one session's committed envelopes (see subscription.ts). */
export interface LiveListener {
  deliver(envelope: EventEnvelope): void;
  /** The sequence of the last envelope handed to the reader. */
  readonly reached: number;
  /** The store refused an append: nothing more will be delivered. */
  storeFailed(): void;
}

interface DeliveryWait {
  readonly sequence: number;
  readonly waiting: Set<LiveListener>;
  resolve(): void;
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

/**
 * The runtime's single writer. Envelopes get their sequence synchronously (so a provider's
 * synchronous `emit` is ordered at once) and are appended in batches: everything staged in one
 * tick of the event loop goes to the store in one transaction. Live listeners see an envelope
 * only after its batch is durable.
 */
export class EventWriter {
  private pending: { log: SessionLog; envelope: EventEnvelope }[] = [];
  private pendingDone: Deferred | undefined;
  private inflight: Promise<void> | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    readonly store: EventStore,
    readonly clock: RuntimeClock,
    readonly ids: IdFactory,
  ) {}

  enqueue(log: SessionLog, envelope: EventEnvelope): void {
    this.pending.push({ log, envelope });
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
    // let the current synchronous burst finish so it lands in one transaction
    await Promise.resolve();
    while (this.pending.length > 0) {
      const batch = this.pending;
      const done = this.pendingDone ?? deferred();
      this.pending = [];
      this.pendingDone = undefined;
      this.inflight = done.promise;
      try {
        await this.store.append(batch.map((b) => b.envelope));
        for (const { log, envelope } of batch) log.committed(envelope);
        done.resolve();
      } catch (cause) {
        const error = isRuntimeError(cause)
          ? cause
          : new RuntimeError('store_unavailable', 'store_io', 'the event store refused an append', {
              cause,
            });
        for (const { log } of batch) log.fail(error);
        done.reject(error);
      } finally {
        this.inflight = undefined;
      }
    }
  }
}

/** One session's sequence counter, live listeners and durability waits. */
export class SessionLog {
  private lastSequence: number;
  private lastCommitted: number;
  private failure: RuntimeError | undefined;
  private readonly listeners = new Set<LiveListener>();
  private readonly waits = new Set<DeliveryWait>();
  private terminal = false;

  constructor(
    private readonly writer: EventWriter,
    readonly sessionId: string,
    lastStoredSequence = 0,
  ) {
    this.lastSequence = lastStoredSequence;
    this.lastCommitted = lastStoredSequence;
  }

  /** Assigns the next sequence and stages the envelope for the next batch. Never throws. */
  append(payload: EventPayload, runId?: string): EventEnvelope {
    this.lastSequence += 1;
    const envelope: EventEnvelope = {
      eventId: this.writer.ids('evt'),
      sessionId: this.sessionId,
      sequence: this.lastSequence,
      occurredAt: isoAt(this.writer.clock),
      wireVersion: WIRE_VERSION,
      payload,
    };
    if (runId !== undefined) envelope.runId = runId;
    if (this.failure === undefined && !eventEnvelopeSchema.safeParse(envelope).success) {
      // never stored: it would not parse on read. The session's log stops here, as after a
      // store failure, so the stored history keeps no gap
      this.lastSequence -= 1;
      this.fail(
        new RuntimeError('internal', 'envelope_invalid', 'the runtime built an invalid envelope', {
          details: { type: payload.type.slice(0, 64) },
        }),
      );
      return envelope;
    }
    if (payload.type === 'session.closed') this.terminal = true;
    // after a store failure nothing more is written for this session (never a gap in the
    // stored history); the failure surfaces through durable() and subscriptions instead
    if (this.failure === undefined) this.writer.enqueue(this, envelope);
    return envelope;
  }

  /** Resolves when every envelope appended so far is durable; rejects if the store failed. */
  async durable(): Promise<void> {
    this.throwIfFailed();
    // a failed batch fails the logs it held (fail()); another session's failure is not ours
    await this.writer.flushed().catch(() => undefined);
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  get committedSequence(): number {
    return this.lastCommitted;
  }

  /** True once `session.closed` has been appended: nothing follows it. */
  get closed(): boolean {
    return this.terminal;
  }

  get failed(): RuntimeError | undefined {
    return this.failure;
  }

  committed(envelope: EventEnvelope): void {
    this.lastCommitted = envelope.sequence;
    for (const listener of this.listeners) listener.deliver(envelope);
  }

  fail(error: RuntimeError): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    // every waiting reader wakes to the typed failure; delivery waits end (nothing will come)
    for (const listener of this.listeners) listener.storeFailed();
    for (const wait of this.waits) wait.waiting.clear();
    this.progressed();
  }

  listen(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      this.progressed();
    };
  }

  /**
   * Resolves once every listener present now has handed `sequence` to its reader or stopped
   * listening. Unbounded by itself: the caller puts a deadline on it.
   */
  delivered(sequence: number): Promise<void> {
    const waiting = new Set([...this.listeners].filter((l) => l.reached < sequence));
    if (waiting.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.waits.add({ sequence, waiting, resolve });
    });
  }

  /** A listener handed out more envelopes, or stopped. */
  progressed(): void {
    for (const wait of this.waits) {
      for (const l of wait.waiting) {
        if (!this.listeners.has(l) || l.reached >= wait.sequence) wait.waiting.delete(l);
      }
      if (wait.waiting.size > 0) continue;
      this.waits.delete(wait);
      // a macrotask later: the reader's own continuation runs before whoever awaits this
      setImmediate(() => {
        wait.resolve();
      });
    }
  }
}
