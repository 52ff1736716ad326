import { WIRE_VERSION, type SessionState } from '@relvo-labs/agent-provider';
import type { EventEnvelope, EventPayload } from '../envelope.js';
import { checkedPayload, deltaText, logCorrupt, parseStored, type ReadCheck } from './verify.js';
import type { StoredSession } from './types.js';

/*
 * How envelopes and session summaries map to the SQLite store's rows, both ways. A row holds a
 * run of one session's consecutive envelopes as a JSON array (schema version 3, adr/0035).
 */

/**
 * Envelopes per row at most: bounds what a read starting mid-row parses and discards, while a
 * turn's burst of deltas still costs one or two inserts rather than hundreds.
 */
export const ENVELOPES_PER_ROW = 256;

export const INSERT_ROW_SQL = `INSERT INTO event_rows (session_id, first_sequence, last_sequence, envelopes)
  VALUES (?, ?, ?, ?)`;

/** The rows holding `fromSequence` and after, in order (the row holding it starts at or before it). */
export const SELECT_ROWS_SQL = `SELECT session_id, first_sequence, envelopes FROM event_rows
  WHERE session_id = @sessionId AND first_sequence >= coalesce((SELECT max(first_sequence)
    FROM event_rows WHERE session_id = @sessionId AND first_sequence <= @fromSequence), 0)
  ORDER BY first_sequence`;

/** A row as SELECT_ROWS_SQL reads it. */
export interface StoredRow {
  readonly session_id: string;
  readonly first_sequence: number;
  readonly envelopes: string;
}

/**
 * One envelope in a row: what the row's session and first sequence do not already say. A run id
 * or time equal to the previous envelope's in the row is written as 0: a turn's deltas share
 * both, and bytes are what a commit costs. For the same reason a message delta's payload is
 * written as its text alone (schema version 4): a bare string in a row is always one.
 */
type Packed = [
  eventId: string,
  runId: string | null | typeof SAME,
  occurredAt: string | typeof SAME,
  payload: EventPayload | string,
];
const SAME = 0;

function packPayload(payload: EventPayload): EventPayload | string {
  return payload.type === 'run.message_delta' ? payload.text : payload;
}

/**
 * Calls `insert` once per row: each run of consecutive envelopes of one session, cut every
 * ENVELOPES_PER_ROW. The batch was checked gapless per session before (summariesAfter), so a
 * row's sequences are first..last without a hole.
 */
export function forEachRow(
  batch: readonly EventEnvelope[],
  insert: (sessionId: string, first: number, last: number, envelopes: string) => void,
): void {
  let start = 0;
  while (start < batch.length) {
    const head = batch[start] as EventEnvelope;
    const packed: Packed[] = [];
    let runId: string | null | undefined;
    let occurredAt: string | undefined;
    let end = start;
    for (; end < batch.length && end - start < ENVELOPES_PER_ROW; end++) {
      const e = batch[end] as EventEnvelope;
      if (e.sessionId !== head.sessionId) break;
      const run = e.runId ?? null;
      packed.push([
        e.eventId,
        run === runId ? SAME : run,
        e.occurredAt === occurredAt ? SAME : e.occurredAt,
        packPayload(e.payload),
      ]);
      runId = run;
      occurredAt = e.occurredAt;
    }
    const last = batch[end - 1] as EventEnvelope;
    insert(head.sessionId, head.sequence, last.sequence, JSON.stringify(packed));
    start = end;
  }
}

/**
 * Appends to `into` the envelopes of one row from `fromSequence` on, until `into` holds
 * `limit`; returns false once it does. Envelopes are fresh objects, read as the runtime's wire
 * version (as the one-row-per-event schema did), each one judged by `check` (sequence and
 * header) and its payload by the schema: a damaged row is `log_corrupt`.
 */
export function takeEnvelopes(
  row: StoredRow,
  fromSequence: number,
  limit: number,
  into: EventEnvelope[],
  check: ReadCheck,
): boolean {
  const packed = parseStored(row.envelopes, check.expected);
  if (!Array.isArray(packed)) throw logCorrupt(check.expected, 'invalid');
  let runId: unknown = null;
  let occurredAt: unknown = '';
  for (let i = 0; i < packed.length; i++) {
    const sequence = row.first_sequence + i;
    const entry: unknown = packed[i];
    if (!Array.isArray(entry) || entry.length !== 4) throw logCorrupt(sequence, 'invalid');
    const [eventId, run, at, payload] = entry as unknown[];
    // the run id and time carry over from the envelopes before, read or skipped
    if (run !== SAME) runId = run;
    if (at !== SAME) occurredAt = at;
    if (sequence < fromSequence) continue;
    if (into.length >= limit) return false;
    if (typeof eventId !== 'string' || typeof occurredAt !== 'string' || runId === undefined) {
      throw logCorrupt(sequence, 'invalid');
    }
    const envelope: EventEnvelope = {
      eventId,
      sessionId: row.session_id,
      sequence,
      occurredAt,
      wireVersion: WIRE_VERSION,
      payload:
        typeof payload === 'string'
          ? deltaText(payload, sequence)
          : checkedPayload(payload, sequence),
    };
    // the judge refuses a run id that is not a string of the schema
    if (runId !== null) envelope.runId = runId as string;
    into.push(check.accept(envelope));
  }
  return into.length < limit;
}

export interface SessionRow {
  session_id: string;
  state: string;
  default_profile: string;
  opened_at: string;
  updated_at: string;
  last_sequence: number;
}

export function toSummary(row: SessionRow): StoredSession {
  return {
    sessionId: row.session_id,
    state: row.state as SessionState,
    defaultProfile: row.default_profile,
    openedAt: row.opened_at,
    updatedAt: row.updated_at,
    lastSequence: row.last_sequence,
  };
}

/** A row of one event per row, as the PostgreSQL store keeps them (and schema versions 1–2). */
export interface EventRow {
  session_id: string;
  sequence: number;
  event_id: string;
  run_id: string | null;
  occurred_at: string;
  wire_version: string;
  payload: string;
}

/** A PostgreSQL row as an envelope, judged by `check` and the schema (`log_corrupt` if not). */
export function toEnvelope(row: EventRow, check: ReadCheck): EventEnvelope {
  const sequence = row.sequence;
  const envelope: EventEnvelope = {
    eventId: row.event_id,
    sessionId: row.session_id,
    sequence,
    occurredAt: row.occurred_at,
    wireVersion: WIRE_VERSION,
    payload: checkedPayload(parseStored(row.payload, sequence), sequence),
  };
  if (row.run_id !== null) envelope.runId = row.run_id;
  return check.accept(envelope);
}
