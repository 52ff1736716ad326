/**
 * Versioned schema of the SQLite event store. `PRAGMA user_version` holds the version a
 * database is at; each migration runs in its own transaction together with the version bump.
 * Append only: never edit a released migration, add the next one.
 */
export interface Migration {
  readonly version: number;
  readonly sql: string;
}

/** `PRAGMA application_id`: marks a file as a relvo event store ("RLVO"). */
export const SQLITE_APPLICATION_ID = 0x524c564f;

export const MIGRATIONS: readonly Migration[] = Object.freeze([
  {
    version: 1,
    sql: `
      CREATE TABLE sessions (
        session_id      TEXT PRIMARY KEY,
        state           TEXT NOT NULL,
        default_profile TEXT NOT NULL,
        opened_at       TEXT NOT NULL,
        updated_at      TEXT NOT NULL,
        last_sequence   INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE events (
        session_id   TEXT NOT NULL,
        sequence     INTEGER NOT NULL,
        event_id     TEXT NOT NULL,
        run_id       TEXT,
        occurred_at  TEXT NOT NULL,
        wire_version TEXT NOT NULL,
        type         TEXT NOT NULL,
        payload      TEXT NOT NULL,
        PRIMARY KEY (session_id, sequence)
      ) WITHOUT ROWID;
    `,
  },
  {
    // Run-scoped reads (a run's history) without scanning the session.
    version: 2,
    sql: `CREATE INDEX events_by_run ON events (run_id, session_id, sequence) WHERE run_id IS NOT NULL;`,
  },
  {
    // One row per batch and session (at most ENVELOPES_PER_ROW envelopes, as a JSON array)
    // instead of one per event: a row costs more CPU than the adapter spends on an event
    // (docs/performance.md). Reads go by (session_id, sequence) only, so events_by_run, which
    // no query used, goes with the old table. Existing rows move over, one per row.
    version: 3,
    sql: `
      CREATE TABLE event_rows (
        session_id     TEXT NOT NULL,
        first_sequence INTEGER NOT NULL,
        last_sequence  INTEGER NOT NULL,
        envelopes      TEXT NOT NULL,
        PRIMARY KEY (session_id, first_sequence)
      );
      INSERT INTO event_rows (session_id, first_sequence, last_sequence, envelopes)
        SELECT session_id, sequence, sequence, json_array(CASE WHEN run_id IS NULL
          THEN json_object('eventId', event_id, 'sessionId', session_id, 'sequence', sequence,
            'occurredAt', occurred_at, 'wireVersion', wire_version, 'payload', json(payload))
          ELSE json_object('eventId', event_id, 'sessionId', session_id, 'runId', run_id,
            'sequence', sequence, 'occurredAt', occurred_at, 'wireVersion', wire_version,
            'payload', json(payload))
          END)
        FROM events ORDER BY session_id, sequence;
      DROP TABLE events;
    `,
  },
]);

export const LATEST_SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);
