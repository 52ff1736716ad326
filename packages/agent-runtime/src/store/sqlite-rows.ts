import { WIRE_VERSION, type SessionState } from '@relvo-labs/agent-provider';
import type { EventEnvelope, EventPayload } from '../envelope.js';
import type { StoredSession } from './types.js';

/* How envelopes and session summaries map to the SQLite store's rows, both ways. */

/** Rows per INSERT statement: one call into SQLite per this many events, not one per event. */
export const ROWS_PER_INSERT = 32;

export function insertEventsSql(rows: number): string {
  const values = Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
  return `INSERT INTO events (session_id, sequence, event_id, run_id, occurred_at, wire_version, type, payload)
       VALUES ${values}`;
}

/** The event columns of `envelopes`, row after row, in `into` (reused between statements). */
export function bindEvents(envelopes: readonly EventEnvelope[], into: unknown[]): unknown[] {
  let at = 0;
  for (const e of envelopes) {
    into[at++] = e.sessionId;
    into[at++] = e.sequence;
    into[at++] = e.eventId;
    into[at++] = e.runId ?? null;
    into[at++] = e.occurredAt;
    into[at++] = e.wireVersion;
    into[at++] = e.payload.type;
    into[at++] = JSON.stringify(e.payload);
  }
  into.length = at;
  return into;
}

export interface EventRow {
  session_id: string;
  sequence: number;
  event_id: string;
  run_id: string | null;
  occurred_at: string;
  wire_version: string;
  payload: string;
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

export function toEnvelope(row: EventRow): EventEnvelope {
  const envelope: EventEnvelope = {
    eventId: row.event_id,
    sessionId: row.session_id,
    sequence: row.sequence,
    occurredAt: row.occurred_at,
    wireVersion: WIRE_VERSION,
    payload: JSON.parse(row.payload) as EventPayload,
  };
  if (row.run_id !== null) envelope.runId = row.run_id;
  return envelope;
}
