/**
 * An answer is durable (on PostgreSQL: under the lease) before its provider gets it, and the log
 * never says the opposite of what happened. Runtimes in child processes on a real SQLite file or
 * a real PostgreSQL server: a paused owner that lost its lease, a stopped server, a SQLite log
 * whose writes fail (the child's file size is limited), and a host killed with SIGKILL after its
 * provider took the answer but before the settlement committed.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteEventStore, type EventEnvelope } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { pgQuery, startPgCluster, untilLeaseLapsed } from './pg-cluster.js';
import { usePgCluster } from './pg-suite.js';
import { RuntimeChild } from './runtime-child.js';
import { onCleanup, tempDir } from './support.js';

const CHILD = fileURLToPath(new URL('./fixtures/answer-child.ts', import.meta.url));
const server = usePgCluster();
const ANSWER = { kind: 'approval', decision: 'approved', mode: 'once' };

class Child extends RuntimeChild {
  constructor(spec: Record<string, unknown>, launcher: readonly string[] = []) {
    super(CHILD, [JSON.stringify(spec)], process.env, launcher);
  }

  /** Until the approval is pending and durable: [sessionId, interactionId]. */
  async pending(): Promise<[string, string]> {
    const line = await this.line((l) => l.startsWith('PENDING '), 'the pending approval');
    const [, sessionId = '', interactionId = ''] = line.split(' ');
    return [sessionId, interactionId];
  }

  /** Answers; resolves with what respond said and how many answers the provider got. */
  async answer(): Promise<[string, string]> {
    this.send('ANSWER');
    const said = await this.line((l) => l.startsWith('RESPONDED '), 'the answer', 30_000);
    const got = await this.line((l) => l.startsWith('RESPONSES '), 'the provider count');
    return [said.slice(10), got.slice(10)];
  }
}

type Payload = Record<string, unknown>;

/** The interaction's payloads as stored, in order. */
function interactionPayloads(events: readonly { type: string; payload: Payload }[]): Payload[] {
  return events.filter((e) => e.type.startsWith('interaction.')).map((e) => e.payload);
}

async function pgEvents(
  url: string,
  schema: string,
  sessionId: string,
): Promise<{ type: string; payload: Payload }[]> {
  const rows = await pgQuery<{ type: string; payload: string }>(
    url,
    `SELECT type, payload::text AS payload FROM ${schema}.events WHERE session_id = $1
     ORDER BY sequence`,
    [sessionId],
  );
  return rows.map((r) => ({ type: r.type, payload: JSON.parse(r.payload) as Payload }));
}

/** What a log says after a crash between delivery and the settlement's commit. */
function expectDeliveredOutcomeUnknown(payloads: Payload[], interactionId: string): void {
  expect(payloads).toEqual([
    expect.objectContaining({ type: 'interaction.requested', interactionId }),
    { type: 'interaction.answered', interactionId, response: ANSWER },
    {
      type: 'interaction.settled',
      interactionId,
      settlement: {
        outcome: 'responded',
        settledAt: expect.any(String) as unknown,
        response: ANSWER,
        error: expect.objectContaining({
          details: { reason: 'answer_outcome_unknown' },
        }) as unknown,
      },
    },
  ]);
}

describe('SQLite: a host killed between delivery and a slow settlement commit', () => {
  it('restarts with a log that says the answer was delivered, outcome unknown, never cancelled', async () => {
    const dir = tempDir();
    const sqlite = join(dir, 'events.db');
    const owner = new Child({ mode: 'owner', sqlite, workspace: dir, slowSettle: true });
    const [sessionId, interactionId] = await owner.pending();
    owner.send('ANSWER');
    // the provider has the answer; the settlement's commit hangs
    expect(await owner.line((l) => l.startsWith('SLOW '), 'the slow commit')).toBe('SLOW 1');
    owner.signal('SIGKILL');
    await owner.exited;
    const next = new Child({ mode: 'takeover', sqlite });
    expect(await next.line((l) => l.startsWith('RECOVERED'), 'the restart')).toBe(
      `RECOVERED ${sessionId}`,
    );
    await next.exited;
    const store = openSqliteEventStore({ path: sqlite });
    onCleanup(() => store.close());
    const events: readonly EventEnvelope[] = await store.read(sessionId, {
      fromSequence: 1,
      limit: 1000,
    });
    const payloads = interactionPayloads(
      events.map((e) => ({ type: e.payload.type, payload: e.payload })),
    );
    expectDeliveredOutcomeUnknown(payloads, interactionId);
  }, 60_000);
});

describe('SQLite: an answer after the store failed', () => {
  it('the disk refuses the log (a file size limit): the answer fails store_io and never reaches the provider', async () => {
    const dir = tempDir();
    // every file this process writes stops growing at 2 MiB (EFBIG; node ignores SIGXFSZ)
    const owner = new Child(
      { mode: 'owner', sqlite: join(dir, 'events.db'), workspace: dir, fillStore: true },
      ['prlimit', `--fsize=${String(2 * 1024 * 1024)}`, '--'],
    );
    await owner.pending();
    expect(await owner.line((l) => l.startsWith('STORE_FAILED '), 'the store failure')).toBe(
      'STORE_FAILED store_io',
    );
    expect(await owner.answer()).toEqual(['store_io', '0']);
  }, 60_000);
});

describe.skipIf(server.skip !== undefined)('PostgreSQL: an answer under the lease', () => {
  it('a paused owner whose session was taken over answers after it wakes: lease_lost, its provider gets nothing', async () => {
    const url = server.cluster().connectionString;
    const schema = 'answer_pause';
    const owner = new Child({ mode: 'owner', url, schema, leaseMs: 600, workspace: tempDir() });
    const [sessionId] = await owner.pending();
    owner.signal('SIGSTOP');
    await untilLeaseLapsed(url, schema, sessionId);
    const taker = new Child({ mode: 'takeover', url, schema });
    await taker.line((l) => l === `RECOVERED ${sessionId}`, 'the takeover');
    await taker.exited;
    owner.signal('SIGCONT');
    expect(await owner.answer()).toEqual(['lease_lost', '0']);
    // the new owner's record stands: the approval was cancelled, and no answer was recorded
    const types = (await pgEvents(url, schema, sessionId)).map((e) => e.type);
    expect(types.filter((t) => t.startsWith('interaction.'))).toEqual([
      'interaction.requested',
      'interaction.settled',
    ]);
    expect(types.at(-1)).toBe('session.closed');
  }, 60_000);

  it('the lease taken over before the owner noticed (no renewal since): the answer append itself is fenced, lease_lost, its provider gets nothing', async () => {
    const url = server.cluster().connectionString;
    const schema = 'answer_fence';
    // a long lease: no renewal or local deadline can notice the takeover during this test
    const owner = new Child({ mode: 'owner', url, schema, leaseMs: 60_000, workspace: tempDir() });
    const [sessionId] = await owner.pending();
    // another runtime's acquisition, as the lease table records it: a new owner and token
    await pgQuery(
      url,
      `UPDATE ${schema}.leases SET owner = 'another-runtime', token = token + 1,
       expires_at = clock_timestamp() + interval '60 seconds' WHERE session_id = $1`,
      [sessionId],
    );
    expect(await owner.answer()).toEqual(['lease_lost', '0']);
    const types = (await pgEvents(url, schema, sessionId)).map((e) => e.type);
    expect(types.filter((t) => t.startsWith('interaction.'))).toEqual(['interaction.requested']);
  }, 60_000);

  it('a host killed between delivery and a slow settlement commit: the next owner records delivered, outcome unknown', async () => {
    const url = server.cluster().connectionString;
    const schema = 'answer_crash';
    const owner = new Child({
      mode: 'owner',
      url,
      schema,
      leaseMs: 600,
      workspace: tempDir(),
      slowSettle: true,
    });
    const [sessionId, interactionId] = await owner.pending();
    owner.send('ANSWER');
    expect(await owner.line((l) => l.startsWith('SLOW '), 'the slow commit')).toBe('SLOW 1');
    owner.signal('SIGKILL');
    await owner.exited;
    await untilLeaseLapsed(url, schema, sessionId);
    const taker = new Child({ mode: 'takeover', url, schema });
    await taker.line((l) => l === `RECOVERED ${sessionId}`, 'the takeover');
    await taker.exited;
    const payloads = interactionPayloads(await pgEvents(url, schema, sessionId));
    expectDeliveredOutcomeUnknown(payloads, interactionId);
  }, 60_000);

  it('the server stopped: the answer fails store_io and never reaches the provider', async () => {
    const cluster = await startPgCluster();
    onCleanup(() => cluster.stop());
    const owner = new Child({
      mode: 'owner',
      url: cluster.connectionString,
      schema: 'answer_down',
      workspace: tempDir(),
    });
    await owner.pending();
    await cluster.stop();
    expect(await owner.answer()).toEqual(['store_io', '0']);
  }, 60_000);
});

if (server.skip !== undefined) {
  describe('PostgreSQL: an answer under the lease', () => {
    it.skip(`skipped: ${server.skip}`, () => undefined);
  });
}
