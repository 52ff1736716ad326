/**
 * A runtime on PostgreSQL driving the REAL codex binary (scripted model on 127.0.0.1) loses a
 * session: its lease is taken over by another runtime, or its store can no longer write. Its
 * codex process is gone at once, its readers end with the typed error, and the other runtime
 * gets the session within one lease period.
 */
import {
  isRuntimeError,
  openPostgresEventStore,
  type AgentRuntime,
  type EventStore,
  type RuntimeSession,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { pgQuery } from '../../packages/agent-runtime/test/pg-cluster.js';
import { usePgCluster } from '../../packages/agent-runtime/test/pg-suite.js';
import { execCommandStep, type IsolatedCodexHome } from '../../src/testing/index.js';
import { useCleanups } from '../support/cleanups.js';
import { codexRuntime } from '../support/codex-runtime.js';
import { processesWithEnv } from '../support/proc-scan.js';

const pg = usePgCluster();
const LEASE_MS = 1_000;
let schemas = 0;
const cleanups = useCleanups();

function sql(text: string, params: unknown[] = []): Promise<object[]> {
  return pgQuery(pg.cluster().connectionString, text, params);
}

function openStore(schema: string, url = pg.cluster().connectionString): EventStore {
  const store = openPostgresEventStore({ connectionString: url, schema, leaseMs: LEASE_MS });
  cleanups.push(() => store.close());
  return store;
}

async function until(label: string, predicate: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

interface Owner {
  readonly runtime: AgentRuntime;
  readonly session: RuntimeSession;
  readonly iso: IsolatedCodexHome;
  /** The live codex app-server processes this test process started for the owner. */
  codex(): number[];
  /** How the session's subscription ended, once it did. */
  ended(): string | undefined;
}

/** A runtime on `store` whose session has a codex turn waiting for an approval. */
async function ownerWithPendingApproval(store: EventStore): Promise<Owner> {
  const { iso, server, runtime } = await codexRuntime(cleanups, {
    prefix: 'relvo-lease-',
    providerOptions: { sandboxMode: 'workspace-write', approvals: 'bridge' },
    runtime: { store, closeGraceMs: 5_000 },
    shutdownMayFail: true,
  });
  const session = await runtime.openSession({ workspace: iso.workspace });
  let ended: string | undefined;
  void (async () => {
    try {
      for await (const _ of session.subscribe()) continue;
      ended = 'ended';
    } catch (error) {
      ended = isRuntimeError(error) ? error.reason : 'untyped';
    }
  })();
  server.enqueue(execCommandStep('echo never', { escalate: true, justification: 'test' }));
  await session.submitTurn({ input: 'run it' });
  await until('the approval', () => session.pendingInteractions().length === 1);
  const codex = (): number[] =>
    processesWithEnv(`CODEX_HOME=${iso.codexHome}`)
      .filter((p) => p.ppid === process.pid && p.cmdline.includes('app-server'))
      .map((p) => p.pid);
  expect(codex()).toHaveLength(1);
  return { runtime, session, iso, codex, ended: () => ended };
}

describe.skipIf(pg.skip !== undefined)('a runtime that loses a codex session (PostgreSQL)', () => {
  it('a renewal that finds the lease taken over ends the readers with lease_lost and stops codex at once', async () => {
    const schema = `codex_lease_${(schemas += 1)}`;
    const owner = await ownerWithPendingApproval(openStore(schema));
    const other = openStore(schema);
    // as if the owner had been paused past its lease: it lapses and another runtime takes it
    await sql(`UPDATE ${schema}.leases SET expires_at = clock_timestamp() WHERE session_id = $1`, [
      owner.session.id,
    ]);
    expect(await other.takeOver?.(owner.session.id)).toBe(true);
    const takenAt = Date.now();
    await until('codex gone', () => owner.codex().length === 0, 2 * LEASE_MS + 5_000);
    // a renewal every third of the lease period, then the dispose of a live process
    expect(Date.now() - takenAt).toBeLessThan(LEASE_MS + 5_000);
    await until('the reader', () => owner.ended() !== undefined);
    expect(owner.ended()).toBe('lease_lost');
    // nothing more runs here: a new turn is refused with the same typed error
    const refused = await owner.session.submitTurn({ input: 'again' }).catch((e: unknown) => e);
    expect(isRuntimeError(refused) && refused.reason).toBe('lease_lost');
  }, 90_000);

  it('an owner that can no longer write lets the session go within one lease period and stops codex', async () => {
    const schema = `codex_lease_${(schemas += 1)}`;
    const role = `codex_writer_${schemas}`;
    const other = openStore(schema);
    await other.listSessions(); // creates the schema
    await sql(`CREATE ROLE ${role} LOGIN`);
    await sql(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
    await sql(`GRANT CREATE ON DATABASE postgres TO ${role}`);
    await sql(`GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
    const url = pg.cluster().connectionString.replace('//relvo@', `//${role}@`);
    const owner = await ownerWithPendingApproval(openStore(schema, url));
    expect(await other.takeOver?.(owner.session.id)).toBe(false);

    // the owner's session waits on a person: nothing appends, only the heartbeat can notice
    await sql(`REVOKE INSERT ON ${schema}.events FROM ${role}`);
    const revokedAt = Date.now();
    while (!(await other.takeOver!(owner.session.id))) {
      if (Date.now() - revokedAt > 10 * LEASE_MS) throw new Error('never taken over');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(Date.now() - revokedAt).toBeLessThan(LEASE_MS + LEASE_MS / 2);
    await until('codex gone', () => owner.codex().length === 0, 10_000);
    await until('the reader', () => owner.ended() !== undefined);
    expect(owner.ended()).toBe('lease_lost');
  }, 90_000);
});

if (pg.skip !== undefined) {
  describe('a runtime that loses a codex session (PostgreSQL)', () => {
    it.skip(`skipped: ${pg.skip}`, () => undefined);
  });
}
