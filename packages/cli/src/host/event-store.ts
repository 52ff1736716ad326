/**
 * `--event-store postgres://…`: the event log on a PostgreSQL database that several hosts share
 * (ADR-0033), instead of the private SQLite file. Named on the command line only — a config file
 * never chooses where the log goes — and never printed as given: every message shows the URL with
 * its password replaced, since the command line is the person's but the terminal, a CI log or a
 * bug report may not be.
 */
import { openPostgresEventStore, type EventStore } from '@relvo-labs/agent-runtime';
import { CliExit, EXIT } from '../exit-codes.js';

const SCHEMES: ReadonlySet<string> = new Set(['postgres:', 'postgresql:']);
const HIDDEN = '***';

export interface PostgresLog {
  /** The URL as given: handed to the driver, never printed. */
  readonly url: string;
  /** What messages show: the URL with any password replaced. */
  readonly label: string;
}

/** The URL with its password (user info, or a `password` parameter) replaced by `***`. */
export function redactConnectionString(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // not a URL at all: nothing of it is safe to repeat
    return 'postgres://<not a URL>';
  }
  if (url.password !== '') url.password = HIDDEN;
  for (const key of [...url.searchParams.keys()])
    if (key.toLowerCase() === 'password') url.searchParams.set(key, HIDDEN);
  return url.toString().replaceAll('%2A%2A%2A', HIDDEN);
}

/** Checks `--event-store`: a postgres:// or postgresql:// URL, else a usage error. */
export function postgresLog(value: string): PostgresLog {
  let scheme: string | undefined;
  try {
    scheme = new URL(value).protocol;
  } catch {
    scheme = undefined;
  }
  if (scheme === undefined || !SCHEMES.has(scheme)) {
    throw new CliExit(
      EXIT.usage,
      '--event-store takes a PostgreSQL URL (postgres://user@host/database); a SQLite file is --event-log FILE',
    );
  }
  return { url: value, label: redactConnectionString(value) };
}

/** Names the file holding the shared log's record key (ADR-0050): every host of the fleet the same. */
export const RECORD_KEY_FILE_VAR = 'RELVO_RECORD_KEY_FILE';

/**
 * The shared log; the store connects on first use, and its errors carry only a SQLSTATE. Its
 * record key comes from the file `RELVO_RECORD_KEY_FILE` names; without one, sessions of it do
 * not resume (`record_key_missing`).
 */
export function openPostgresLog(
  log: PostgresLog,
  env: NodeJS.ProcessEnv = process.env,
): EventStore {
  const keyFile = env[RECORD_KEY_FILE_VAR];
  return openPostgresEventStore({
    connectionString: log.url,
    ...(keyFile === undefined || keyFile === '' ? {} : { recordKeyFile: keyFile }),
  });
}
