/**
 * A throw-away PostgreSQL cluster for tests: initdb into a temp folder and a server on a Unix
 * socket in that folder (no TCP port at all), run as an unprivileged user when the tests run as
 * root (initdb and postgres refuse root). `stop()` shuts it down with a bounded wait and removes
 * the folder. The binaries are Debian's `postgresql` package (`.ci/run` installs it); without
 * them a CI run fails and a local run skips with the reason.
 */
import { createHash } from 'node:crypto';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import pg from 'pg';

export interface PgCluster {
  /** `postgresql://…?host=<socket folder>`; trust auth, the folder is private to the test. */
  readonly connectionString: string;
  readonly socketDir: string;
  stop(): Promise<void>;
  /** `pg_ctl stop -m fast`: every session is cut, the data folder stays. */
  halt(): Promise<void>;
  /** The server again, on the same socket and data folder, once it accepts connections (a
   * running one is left as it is). */
  restart(): Promise<void>;
}

/** The folder holding `initdb` and `postgres`: PATH first, then Debian's versioned folders. */
export function findPgBin(): string | undefined {
  const has = (dir: string): boolean =>
    existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'));
  for (const dir of (process.env.PATH ?? '').split(delimiter))
    if (dir !== '' && has(dir)) return dir;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (has(join(root, v, 'bin'))) return join(root, v, 'bin');
  return undefined;
}

/** Why PostgreSQL tests cannot run here, or undefined when they can. Throws under CI. */
export function pgUnavailable(): string | undefined {
  if (findPgBin() !== undefined) return undefined;
  const reason =
    'PostgreSQL server binaries (initdb, postgres) not found on PATH or in /usr/lib/postgresql/<v>/bin; install Debian package postgresql';
  if (process.env.CI === 'true') throw new Error(`CI=true: ${reason}`);
  return reason;
}

/** The suite's leak check follows this marker into every process a test starts. */
function childEnv(): NodeJS.ProcessEnv {
  const marker = process.env.RELVO_TEST_RUN_ID;
  const env = { ...process.env, LC_ALL: 'C' };
  return marker === undefined ? env : { ...env, RELVO_TEST_CHILD_MARKER: marker };
}

/** The command prefix that drops root to `nobody`; none when not root. */
function unprivileged(dir: string): string[] {
  if (process.getuid?.() !== 0) return [];
  const uid = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim());
  chownSync(dir, uid, gid);
  return ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--'];
}

function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
}

async function bounded(p: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => {
      resolve(false);
    }, ms);
  });
  const done = await Promise.race([p.then(() => true as const), timeout]);
  clearTimeout(timer);
  return done;
}

type Runner = (cmd: string, args: string[]) => [string, string[]];

function runnerFor(prefix: readonly string[]): Runner {
  return (cmd, args) =>
    prefix.length === 0 ? [cmd, args] : [prefix[0] as string, [...prefix.slice(1), cmd, ...args]];
}

const INITDB_ARGS = ['-U', 'relvo', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'];

function execOrThrow(what: string, [cmd, args]: [string, string[]]): void {
  try {
    execFileSync(cmd, args, { env: childEnv(), stdio: 'pipe', timeout: 60_000 });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().slice(-2000) ?? '';
    throw new Error(`${what} failed: ${stderr}`, { cause: error });
  }
}

/**
 * A freshly initdb'd data folder every cluster starts from a copy of: initdb takes seconds on a
 * loaded machine, a copy a fraction of one. Kept in the temp folder per PostgreSQL build, user
 * and initdb arguments; made under a name of its own and renamed into place whole, so a test
 * running beside it never sees half of one.
 */
function templateData(bin: string): string {
  const version = execFileSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' });
  const key = createHash('sha256')
    .update([bin, version, String(process.getuid?.()), ...INITDB_ARGS].join('\n'))
    .digest('hex')
    .slice(0, 16);
  const home = join(tmpdir(), `relvo-pg-template-${key}`);
  if (existsSync(join(home, 'data', 'PG_VERSION'))) return join(home, 'data');
  const making = mkdtempSync(join(tmpdir(), 'relvo-pg-template-new-'));
  try {
    const run = runnerFor(unprivileged(making));
    execOrThrow('initdb', run(join(bin, 'initdb'), ['-D', join(making, 'data'), ...INITDB_ARGS]));
    renameSync(making, home);
  } catch (error) {
    rmSync(making, { recursive: true, force: true });
    // another test made it first: theirs serves as well
    if (!existsSync(join(home, 'data', 'PG_VERSION'))) throw error;
  }
  return join(home, 'data');
}

export async function startPgCluster(options: { readyMs?: number } = {}): Promise<PgCluster> {
  const bin = findPgBin();
  if (bin === undefined) throw new Error(pgUnavailable() ?? 'PostgreSQL binaries not found');
  const template = templateData(bin);
  const dir = mkdtempSync(join(tmpdir(), 'relvo-pg-'));
  const data = join(dir, 'data');
  const run = runnerFor(unprivileged(dir));
  try {
    // -a keeps the 0700 mode postgres insists on
    execOrThrow('copying the template data folder', run('cp', ['-a', template, data]));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const [cmd, args] = run(join(bin, 'postgres'), [
    ...['-D', data, '-k', dir, '-p', '5432', '-c', 'listen_addresses='],
    ...['-c', 'max_connections=200', '-c', 'shared_buffers=32MB'],
  ]);
  let log = '';
  const launch = (): { server: ChildProcess; exited: Promise<void> } => {
    const child = spawn(cmd, args, { env: childEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    return { server: child, exited: exitOf(child) };
  };
  let { server, exited } = launch();
  const connectionString = `postgresql://relvo@localhost/postgres?host=${encodeURIComponent(dir)}`;
  const stop = async (): Promise<void> => {
    // SIGINT is PostgreSQL's fast shutdown: sessions are cut, the server exits cleanly
    server.kill('SIGINT');
    if (!(await bounded(exited, 15_000))) {
      server.kill('SIGKILL');
      await bounded(exited, 5_000);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const ready = async (ms: number): Promise<void> => {
    const deadline = Date.now() + ms;
    for (;;) {
      if (server.exitCode !== null || server.signalCode !== null) {
        throw new Error(`postgres exited before accepting connections: ${log}`);
      }
      const client = new pg.Client({ connectionString, connectionTimeoutMillis: 1_000 });
      try {
        await client.connect();
        await client.end();
        return;
      } catch {
        await client.end().catch(() => undefined);
      }
      if (Date.now() > deadline) {
        throw new Error(`postgres did not accept connections within the bound: ${log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const halt = async (): Promise<void> => {
    const [ctl, ctlArgs] = run(join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'fast', '-w']);
    execFileSync(ctl, ctlArgs, { env: childEnv(), stdio: 'pipe', timeout: 30_000 });
    if (!(await bounded(exited, 15_000)))
      throw new Error('postgres did not exit after pg_ctl stop');
  };
  const restart = async (): Promise<void> => {
    if (server.exitCode === null && server.signalCode === null) return; // still running
    ({ server, exited } = launch());
    await ready(30_000);
  };
  try {
    await ready(options.readyMs ?? 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { connectionString, socketDir: dir, stop, halt, restart };
}

/** One statement on a connection of its own (for checks from outside any store). */
export async function pgQuery<R extends object>(
  connectionString: string,
  text: string,
  params: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<R>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** Bounded: until the database's own clock says the session's lease has lapsed. */
export async function untilLeaseLapsed(
  connectionString: string,
  schema: string,
  sessionId: string,
  ms = 15_000,
): Promise<void> {
  for (const deadline = Date.now() + ms; ;) {
    const rows = await pgQuery<{ live: boolean }>(
      connectionString,
      `SELECT expires_at > clock_timestamp() AS live FROM ${schema}.leases WHERE session_id = $1`,
      [sessionId],
    );
    if (rows[0]?.live === false) return;
    if (Date.now() > deadline) throw new Error(`the lease did not lapse within ${String(ms)} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The record key every runtime of a test on `schema` shares (ADR-0050): derived, never random. */
export function testRecordKey(schema: string): string {
  return createHash('sha256').update(`relvo-test-record-key:${schema}`).digest('hex');
}
