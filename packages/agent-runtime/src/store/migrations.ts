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
    // One row per batch and session (at most ENVELOPES_PER_ROW envelopes) instead of one per
    // event: a row cost more CPU than the adapter spends on an event (docs/performance.md).
    // `envelopes` is a JSON array of [eventId, runId or null, occurredAt, payload], the
    // sequences first_sequence.. in order. Reads go by (session_id, sequence) only, so
    // events_by_run, which no query used, goes with the old table; its rows move over.
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
        SELECT session_id, sequence, sequence,
          json_array(json_array(event_id, run_id, occurred_at, json(payload)))
        FROM events ORDER BY session_id, sequence;
      DROP TABLE events;
    `,
  },
  {
    // No table changes: from this version on, a message delta's payload in `envelopes` may be
    // its text alone (sqlite-rows.ts). The bump keeps a runtime that predates it, which would
    // read such a payload as a string, out of a file that holds them.
    version: 4,
    sql: `SELECT 1;`,
  },
  {
    // Several processes share one file (ADR-0053): each session is owned by one store at a time.
    // `token` grows by one at every acquisition (the fencing token); `expires_at` is ms on the
    // clock `clock` names (sqlite-clock.ts); `holder` names the owner's process, when known.
    version: 5,
    sql: `
      CREATE TABLE leases (
        session_id TEXT PRIMARY KEY,
        owner      TEXT NOT NULL,
        token      INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        clock      TEXT NOT NULL,
        holder     TEXT
      ) WITHOUT ROWID;
    `,
  },
  {
    // The command table beside the log (ADR-0052): rowid orders a session's commands; `changed`
    // grows with every write to the table, so a poll learns of a change from one index lookup.
    version: 6,
    sql: `
      CREATE TABLE commands (
        command_id  TEXT NOT NULL UNIQUE,
        session_id  TEXT NOT NULL,
        body        TEXT NOT NULL,
        issued_by   TEXT NOT NULL,
        issued_at   TEXT NOT NULL,
        state       TEXT NOT NULL,
        accepted_by TEXT,
        settlement  TEXT,
        changed     INTEGER NOT NULL
      );
      CREATE INDEX commands_unsettled ON commands (session_id) WHERE state <> 'settled';
      CREATE INDEX commands_changed ON commands (changed);
    `,
  },
]);

export const LATEST_SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);
