/**
 * Versioned schema of the PostgreSQL event store, in a schema of its own (default `relvo`).
 * `<schema>.meta` holds the application marker and the version; each migration runs in one
 * transaction with its version bump, under an advisory lock, so runtimes starting together
 * migrate once. Append only: never edit a released migration, add the next one.
 */
import type { PoolClient } from 'pg';
import { RuntimeError } from '../errors.js';

export const PG_APPLICATION = 'relvo-event-store';

export interface PgMigration {
  readonly version: number;
  /** `$S` stands for the (checked) schema name. */
  readonly sql: string;
}

export const PG_MIGRATIONS: readonly PgMigration[] = Object.freeze([
  {
    version: 1,
    sql: `
      CREATE TABLE $S.sessions (
        session_id      text PRIMARY KEY,
        state           text NOT NULL,
        default_profile text NOT NULL,
        opened_at       text NOT NULL,
        updated_at      text NOT NULL,
        last_sequence   bigint NOT NULL
      );
      CREATE TABLE $S.events (
        session_id   text NOT NULL,
        sequence     bigint NOT NULL,
        event_id     text NOT NULL,
        run_id       text,
        occurred_at  text NOT NULL,
        wire_version text NOT NULL,
        type         text NOT NULL,
        payload      text NOT NULL,
        PRIMARY KEY (session_id, sequence)
      );
      CREATE INDEX events_by_run ON $S.events (run_id, session_id, sequence) WHERE run_id IS NOT NULL;
      -- one owner per session; token grows by one at every acquisition (the fencing token)
      CREATE TABLE $S.leases (
        session_id text PRIMARY KEY,
        owner      text NOT NULL,
        token      bigint NOT NULL,
        expires_at timestamptz NOT NULL
      );
    `,
  },
  {
    // Commands for a session its owner carries out (ADR-0052); seq orders them per session.
    version: 2,
    sql: `
      CREATE TABLE $S.commands (
        seq         bigserial PRIMARY KEY,
        command_id  text NOT NULL UNIQUE,
        session_id  text NOT NULL,
        body        jsonb NOT NULL,
        issued_by   text NOT NULL,
        issued_at   text NOT NULL,
        state       text NOT NULL CHECK (state IN ('pending', 'accepted', 'settled')),
        accepted_by text,
        -- the lease token it was accepted under: its acceptor may settle it after the session
        -- closed (the close ended the lease) as long as no runtime took the lease since
        accepted_token bigint,
        settlement  jsonb,
        settled_at  timestamptz
      );
      CREATE INDEX commands_open ON $S.commands (session_id, seq) WHERE state <> 'settled';
    `,
  },
  {
    // bodies and settlements as JSON text, as event payloads are: jsonb refuses a NUL inside a
    // string, which a local command carries without trouble (checked when read back)
    version: 3,
    sql: `
      ALTER TABLE $S.commands ALTER COLUMN body TYPE text USING body::text,
        ALTER COLUMN settlement TYPE text USING settlement::text;
    `,
  },
]);

export const PG_LATEST_SCHEMA_VERSION = PG_MIGRATIONS.reduce((m, x) => Math.max(m, x.version), 0);

/** Serialises migrations of one database across processes (an arbitrary constant key). */
const MIGRATION_LOCK_KEY = 0x524c564f;

function foreign(): RuntimeError {
  return new RuntimeError(
    'store_unavailable',
    'store_foreign',
    'the PostgreSQL schema is not a relvo event store',
  );
}

async function currentVersion(client: PoolClient, schema: string): Promise<number> {
  const tables = await client.query<{ name: string }>(
    'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1',
    [schema],
  );
  const names = new Set(tables.rows.map((r) => r.name));
  if (names.size === 0) return 0;
  if (!names.has('meta')) throw foreign();
  const meta = await client.query<{ application: string; version: number }>(
    `SELECT application, version FROM ${schema}.meta`,
  );
  const row = meta.rows[0];
  if (meta.rows.length !== 1 || row?.application !== PG_APPLICATION) throw foreign();
  return row.version;
}

/**
 * Brings the schema to `to` (or refuses a foreign or newer one untouched). Runs in its own
 * transactions on `client`.
 */
export async function migratePg(client: PoolClient, schema: string, to: number): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    const from = await currentVersion(client, schema);
    if (from > PG_LATEST_SCHEMA_VERSION) {
      throw new RuntimeError(
        'store_unavailable',
        'store_newer_schema',
        'the event store was written by a newer runtime; it is left untouched',
        { details: { schemaVersion: from, supportedVersion: PG_LATEST_SCHEMA_VERSION } },
      );
    }
    for (const m of PG_MIGRATIONS.filter((x) => x.version > from && x.version <= to)) {
      await client.query(m.sql.replaceAll('$S', schema));
      if (m.version === 1) {
        await client.query(
          `CREATE TABLE ${schema}.meta (application text NOT NULL, version integer NOT NULL)`,
        );
        await client.query(`INSERT INTO ${schema}.meta VALUES ($1, $2)`, [PG_APPLICATION, 1]);
      } else {
        await client.query(`UPDATE ${schema}.meta SET version = $1`, [m.version]);
      }
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
