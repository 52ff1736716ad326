import { captureJson, WIRE_VERSION } from '@relvo-labs/agent-provider';
import {
  EnvelopeHeaderJudge,
  eventPayloadSchema,
  type EventEnvelope,
  type EventPayload,
} from '../envelope.js';
import { RuntimeError } from '../errors.js';
import { randomId } from '../ids.js';
import { flatPayload } from './flat-payloads.js';
import { deepFreeze } from './intake.js';
import type { EventWriter } from './writer.js';

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

/**
 * A payload the log can hold as it is: frozen, and judged by the schema. One the caller says
 * intake admitted as it is (`judged`) is both already; anything else (the runtime's own payloads)
 * is captured into a frozen copy, so a later change to the caller's object, or a host's attempt
 * on what it read, cannot reach the log.
 */
function recordable(payload: EventPayload, judged: boolean): EventPayload | undefined {
  if (judged) return payload;
  const flat = flatPayload(payload);
  if (flat !== undefined) return flat;
  const captured = captureJson(payload);
  const parsed = captured.ok ? eventPayloadSchema.safeParse(captured.value) : undefined;
  return parsed?.success === true ? deepFreeze(parsed.data) : undefined;
}

const wireVersion = WIRE_VERSION;

/** One session's sequence counter, live listeners and durability waits. */
export class SessionLog {
  private lastSequence: number;
  private lastCommitted: number;
  private failure: RuntimeError | undefined;
  private readonly listeners = new Set<LiveListener>();
  private readonly waits = new Set<DeliveryWait>();
  private readonly judge: EnvelopeHeaderJudge;
  private terminal = false;
  /** While a takeover is undecided: envelopes numbered but not yet handed to the writer. */
  private held: EventEnvelope[] | undefined;
  private readonly failHooks: ((error: RuntimeError) => void)[] = [];

  constructor(
    private readonly writer: EventWriter,
    readonly sessionId: string,
    lastStoredSequence = 0,
  ) {
    this.lastSequence = lastStoredSequence;
    this.lastCommitted = lastStoredSequence;
    this.judge = new EnvelopeHeaderJudge(writer.ids === randomId);
  }

  /**
   * Assigns the next sequence and stages the envelope for the next batch. Never throws. The
   * envelope is frozen: what a host reads (live or from the memory store) is this object.
   */
  append(payload: EventPayload, runId?: string, judged = false): EventEnvelope {
    const recorded = this.failure === undefined ? recordable(payload, judged) : payload;
    const eventId = this.writer.ids('evt');
    const sequence = this.lastSequence + 1;
    const occurredAt = this.writer.stamp();
    const held = recorded ?? payload;
    // two literals rather than a member added later: one shape each, runId last as before
    const envelope: EventEnvelope = Object.freeze(
      runId === undefined
        ? { eventId, sessionId: this.sessionId, sequence, occurredAt, wireVersion, payload: held }
        : {
            eventId,
            sessionId: this.sessionId,
            sequence,
            occurredAt,
            wireVersion,
            payload: held,
            runId,
          },
    );
    if (payload.type === 'session.closed') this.terminal = true;
    // after a store failure nothing more is written for this session (never a gap in the
    // stored history); the failure surfaces through durable() and subscriptions instead
    if (this.failure !== undefined) return envelope;
    if (recorded === undefined || !this.judge.accepts(envelope, this.writer.stampCanonical)) {
      // never stored: it would not parse on read. The session's log stops here, as after a
      // store failure, so the stored history keeps no gap
      this.fail(
        new RuntimeError('internal', 'envelope_invalid', 'the runtime built an invalid envelope', {
          details: { type: payload.type.slice(0, 64) },
        }),
      );
      return envelope;
    }
    this.lastSequence = envelope.sequence;
    if (this.held !== undefined) this.held.push(envelope);
    else this.writer.enqueue(this, envelope);
    return envelope;
  }

  /**
   * From now on envelopes are numbered but kept back: a takeover writes its settlement and
   * opens its provider sessions first, and only a takeover that completes reaches the store.
   */
  hold(): void {
    this.held ??= [];
  }

  /** Hands what was kept back to the writer, in order; appends go straight to it again. */
  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const envelope of held) this.writer.enqueue(this, envelope);
  }

  /** Drops what was kept back: the store never sees it, and this log records nothing more. */
  discard(error: RuntimeError): void {
    this.held = undefined;
    this.lastSequence = this.lastCommitted;
    this.fail(error);
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
    if (this.listeners.size === 0) return;
    for (const listener of this.listeners) listener.deliver(envelope);
  }

  fail(error: RuntimeError): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    // every waiting reader wakes to the typed failure; delivery waits end (nothing will come)
    for (const listener of this.listeners) listener.storeFailed();
    for (const wait of this.waits) wait.waiting.clear();
    this.progressed();
    for (const hook of this.failHooks.splice(0)) hook(error);
  }

  /** Calls `hook` once when the log fails (after its readers were woken). */
  onFailed(hook: (error: RuntimeError) => void): void {
    if (this.failure === undefined) this.failHooks.push(hook);
    else hook(this.failure);
  }

  listen(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      this.progressed();
    };
  }

  /** The writer's current stamp: the time an envelope appended now records. */
  stamp(): string {
    return this.writer.stamp();
  }

  /** True while a listener present now has not handed `sequence` to its reader. */
  undelivered(sequence: number): boolean {
    for (const listener of this.listeners) if (listener.reached < sequence) return true;
    return false;
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
