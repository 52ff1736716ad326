import type { SessionState } from '@relvo-labs/agent-provider';
import type { EventEnvelope } from '../envelope.js';
import { RuntimeError } from '../errors.js';
import type { CommandTable } from './commands.js';

/** What a store knows about a session without reading its history. */
export interface StoredSession {
  readonly sessionId: string;
  readonly state: SessionState;
  readonly defaultProfile: string;
  readonly openedAt: string;
  readonly updatedAt: string;
  readonly lastSequence: number;
}

export interface ReadOptions {
  /** 1-based, inclusive. */
  readonly fromSequence: number;
  readonly limit: number;
}

/**
 * The durable event log. The runtime is its only writer and assigns every sequence; a store
 * checks that each session's sequence continues gaplessly and refuses a batch that does not
 * (`store_conflict`), atomically: a batch is stored whole or not at all.
 *
 * The interface is asynchronous so that a server database can stand behind it; the embedded
 * implementations settle at once.
 */
export interface EventStore {
  /** A short name for diagnostics and the bench (`memory`, `sqlite`). */
  readonly kind: string;
  /**
   * Takes the store for one runtime. A store already claimed by a live runtime refuses with
   * `store_locked`: a second runtime would otherwise mark the first one's sessions failed.
   */
  claim(): Promise<void>;
  /** Transactional: every envelope of the batch is durable when this resolves, or none is. */
  append(batch: readonly EventEnvelope[]): Promise<void>;
  read(sessionId: string, options: ReadOptions): Promise<readonly EventEnvelope[]>;
  getSession(sessionId: string): Promise<StoredSession | undefined>;
  listSessions(): Promise<readonly StoredSession[]>;
  /** Idempotent. Releases the claim; later calls refuse with `store_closed`. */
  close(): Promise<void>;
  /**
   * Stores shared by many runtimes: takes the session's lease for this runtime when no live
   * runtime holds it, false when one does. Absent where the claim covers every session.
   */
  takeOver?(sessionId: string): Promise<boolean>;
  /**
   * Stores shared by many runtimes: calls `onAppend` after each append to the session that any
   * runtime committed; resolves (with the way to stop) once watching. Absent where only this
   * runtime writes, so its own log is the live source.
   */
  watch?(sessionId: string, onAppend: () => void): Promise<() => void>;
  /**
   * Calls `onChange` soon after an append to any session, by this or (for a shared store) any
   * other runtime — a session opened elsewhere included; resolves (with the way to stop) once
   * watching. A watcher learns "read again", never content, and may be woken more often than
   * the log changed. For followers of the whole log, such as the web console's list.
   */
  watchLog?(onChange: () => void): Promise<() => void>;
  /**
   * With `watch`: the waits (ms) before each new try when following a session fails with
   * `store_io` (the server restarted or was out of reach): the follower listens again and reads
   * on from its last sequence. Once they are spent the failure ends the subscription.
   */
  readonly followRetryMs?: readonly number[];
  /**
   * Stores with leases: calls `listener` once for each session whose lease this store held and
   * lost (a renewal found it lapsed or taken over, or its renewal could not be confirmed before
   * it would expire), with the typed `lease_lost` error; returns the way to stop. The runtime
   * fails the session's log with it and disposes its provider sessions.
   */
  onLeaseLost?(listener: (sessionId: string, error: RuntimeError) => void): () => void;
  /**
   * Stores with leases: the runtime will write nothing more for the session (its log failed for
   * good), so the store stops renewing its lease and ends it now, best effort (never throws); a
   * later append to the session needs `takeOver` first. Not reported to `onLeaseLost`.
   */
  relinquish?(sessionId: string): Promise<void>;
  /**
   * The log's record key (ADR-0050), kept outside the log: it authenticates recovery records.
   * SQLite: a key file beside the database; memory: one for the process; PostgreSQL: the key
   * the host configured, or undefined (then no session of this log resumes or forks). Throws a
   * typed refusal for a key that is malformed or readable by others.
   */
  recordKey?(): Buffer | undefined;
  /**
   * Stores shared by many runtimes: the command table (ADR-0052) through which a command for a
   * session another runtime owns reaches that owner. Absent where one runtime owns every
   * session (memory).
   */
  readonly commands?: CommandTable;
}

/** The part of a session summary an envelope changes (shared by both stores). */
export function summaryAfter(
  previous: StoredSession | undefined,
  envelope: EventEnvelope,
): StoredSession | undefined {
  const p = envelope.payload;
  if (p.type === 'session.opened') {
    if (previous !== undefined) return undefined;
    return {
      sessionId: envelope.sessionId,
      state: 'opening',
      defaultProfile: p.defaultProfile,
      openedAt: envelope.occurredAt,
      updatedAt: envelope.occurredAt,
      lastSequence: envelope.sequence,
    };
  }
  if (previous === undefined) return undefined;
  return {
    ...previous,
    state: p.type === 'session.state_changed' ? p.to : previous.state,
    updatedAt: envelope.occurredAt,
    lastSequence: envelope.sequence,
  };
}

/**
 * The summary after appending `envelope`, or a `store_conflict` when its sequence does not
 * continue the session gaplessly (or a session would be opened twice, or not opened first).
 */
export function nextSummary(
  previous: StoredSession | undefined,
  envelope: EventEnvelope,
): StoredSession {
  const expected = (previous?.lastSequence ?? 0) + 1;
  const summary = envelope.sequence === expected ? summaryAfter(previous, envelope) : undefined;
  if (summary === undefined) {
    throw new RuntimeError(
      'store_conflict',
      'store_conflict',
      'an appended sequence does not continue its session gaplessly',
      {
        details: { expected, received: envelope.sequence },
      },
    );
  }
  return summary;
}
