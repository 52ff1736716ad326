/** The statements of a PostgreSQL append, inside the transaction the store holds open. */
import type { PoolClient } from 'pg';
import type { EventEnvelope } from '../envelope.js';
import { toSummary, type SessionRow } from './sqlite-rows.js';
import type { StoredSession } from './types.js';

export const EVENT_COLUMNS = `session_id, sequence::float8 AS sequence, event_id, run_id,
  occurred_at, wire_version, payload`;
export const SESSION_COLUMNS = `session_id, state, default_profile, opened_at, updated_at,
  last_sequence::float8 AS last_sequence`;

/** The batch's envelopes by session, each session's in order. */
export function bySession(batch: readonly EventEnvelope[]): Map<string, EventEnvelope[]> {
  const groups = new Map<string, EventEnvelope[]>();
  for (const e of batch) {
    const group = groups.get(e.sessionId);
    if (group === undefined) groups.set(e.sessionId, [e]);
    else group.push(e);
  }
  return groups;
}

/** The session's summary as stored, its row locked until commit. */
export async function lockedSummary(
  client: PoolClient,
  schema: string,
  sessionId: string,
): Promise<StoredSession | undefined> {
  const found = await client.query<SessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM ${schema}.sessions WHERE session_id = $1 FOR UPDATE`,
    [sessionId],
  );
  const row = found.rows[0];
  return row === undefined ? undefined : toSummary(row);
}

/**
 * Events, summary and notification in one statement. NOTIFY is delivered at commit and carries
 * the session id and last sequence, never content.
 */
export async function writeSession(
  client: PoolClient,
  schema: string,
  envelopes: readonly EventEnvelope[],
  last: StoredSession,
): Promise<void> {
  const column = <T>(pick: (e: EventEnvelope) => T): T[] => envelopes.map(pick);
  await client.query(
    `WITH ev AS (
       INSERT INTO ${schema}.events
         (session_id, sequence, event_id, run_id, occurred_at, wire_version, type, payload)
       SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[],
         $7::text[], $8::text[])
     ), up AS (
       INSERT INTO ${schema}.sessions AS x
         (session_id, state, default_profile, opened_at, updated_at, last_sequence)
       VALUES ($1, $9, $10, $11, $12, $13)
       ON CONFLICT (session_id) DO UPDATE SET state = EXCLUDED.state,
         updated_at = EXCLUDED.updated_at, last_sequence = EXCLUDED.last_sequence
       RETURNING x.last_sequence
     )
     SELECT pg_notify($14, $1 || ' ' || last_sequence) FROM up`,
    [
      last.sessionId,
      column((e) => e.sequence),
      column((e) => e.eventId),
      column((e) => e.runId ?? null),
      column((e) => e.occurredAt),
      column((e) => e.wireVersion),
      column((e) => e.payload.type),
      column((e) => JSON.stringify(e.payload)),
      last.state,
      last.defaultProfile,
      last.openedAt,
      last.updatedAt,
      last.lastSequence,
      `${schema}_appended`,
    ],
  );
}
