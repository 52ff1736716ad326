/**
 * Runtimes in separate processes on one PostgreSQL database: the owner of a session dies (or is
 * paused) mid-run, another runtime takes the session over once the lease lapses, and a third
 * process following the session sees one gapless sequence.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pgQuery, untilLeaseLapsed } from './pg-cluster.js';
import { usePgCluster } from './pg-suite.js';
import { RuntimeChild } from './runtime-child.js';
import { tempDir } from './support.js';

const CHILD = fileURLToPath(new URL('./fixtures/pg-runtime-child.ts', import.meta.url));
const server = usePgCluster();

/** A runtime child of this file's fixture. */
class Child extends RuntimeChild {
  constructor(args: string[]) {
    super(CHILD, args);
  }
}

function sql<R extends object>(text: string, params: unknown[] = []): Promise<R[]> {
  return pgQuery<R>(server.cluster().connectionString, text, params);
}

function untilLapsed(schema: string, sessionId: string): Promise<void> {
  return untilLeaseLapsed(server.cluster().connectionString, schema, sessionId);
}

async function storedTypes(schema: string, sessionId: string): Promise<[number, string][]> {
  const rows = await sql<{ sequence: number; type: string }>(
    `SELECT sequence::float8 AS sequence, type FROM ${schema}.events WHERE session_id = $1
     ORDER BY sequence`,
    [sessionId],
  );
  return rows.map((r) => [r.sequence, r.type]);
}

const durable = (line: string): number => (line.startsWith('DURABLE ') ? Number(line.slice(8)) : 0);

/** Starts an owner and waits until it is well into its run; returns it with its session id. */
async function busyOwner(schema: string, leaseMs: number): Promise<[Child, string]> {
  const url = server.cluster().connectionString;
  const owner = new Child(['owner', url, schema, tempDir(), String(leaseMs)]);
  const sessionLine = await owner.line((l) => l.startsWith('SESSION '), 'the owner session');
  await owner.line((l) => durable(l) > 200, 'two hundred durable envelopes');
  return [owner, sessionLine.split(' ')[1] ?? ''];
}

describe.skipIf(server.skip !== undefined)('PostgreSQL: a session changes owner', () => {
  it('the owner is killed with SIGKILL mid-run; another runtime takes over after the lease lapses; a third process sees one gapless sequence', async () => {
    const url = server.cluster().connectionString;
    const schema = 'handover_kill';
    const [owner, sessionId] = await busyOwner(schema, 1_000);
    const follower = new Child(['follow', url, schema, sessionId]);
    await follower.line((l) => l.startsWith('SEQ '), 'the follower replay');

    owner.signal('SIGKILL');
    await owner.exited;
    const lastOwned = Math.max(...owner.lines.map(durable));
    await untilLapsed(schema, sessionId);
    const taker = new Child(['takeover', url, schema]);
    expect(await taker.line((l) => l.startsWith('RECOVERED'), 'the takeover')).toBe(
      `RECOVERED ${sessionId}`,
    );
    await follower.line((l) => l === 'END', 'the end of the session', 30_000);

    const seen = follower.lines
      .filter((l) => l.startsWith('SEQ '))
      .map((l): [number, string] => {
        const [, seq, type] = l.split(' ');
        return [Number(seq), type ?? ''];
      });
    const stored = await storedTypes(schema, sessionId);
    // everything stored, each once, in order, and nothing else
    expect(seen).toEqual(stored);
    expect(seen.map(([s]) => s)).toEqual(seen.map((_, i) => i + 1));
    expect(seen.length).toBeGreaterThan(lastOwned);
    const after = seen.filter(([s]) => s > lastOwned).map(([, t]) => t);
    expect(after.slice(-4)).toEqual([
      'run.finished',
      'turn.settled',
      'session.state_changed',
      'session.closed',
    ]);
    expect(seen.filter(([, t]) => t === 'session.closed')).toHaveLength(1);
  }, 120_000);

  it('a paused owner whose lease lapsed is fenced off when it wakes: its appends are refused, never interleaved', async () => {
    const url = server.cluster().connectionString;
    const schema = 'handover_pause';
    const [owner, sessionId] = await busyOwner(schema, 600);
    owner.signal('SIGSTOP');
    await untilLapsed(schema, sessionId);
    const taker = new Child(['takeover', url, schema]);
    await taker.line((l) => l === `RECOVERED ${sessionId}`, 'the takeover');
    await taker.exited;
    const settled = await storedTypes(schema, sessionId);

    owner.signal('SIGCONT');
    const refused = await owner.line((l) => l.startsWith('REFUSED '), 'the refusal', 30_000);
    // also when it was paused inside an append: the server ended that transaction, and the
    // failure is reported as what it is, a lost lease
    expect(refused).toBe('REFUSED lease_lost');
    expect(await storedTypes(schema, sessionId)).toEqual(settled);
    expect(settled.map(([s]) => s)).toEqual(settled.map((_, i) => i + 1));
    expect(settled.at(-1)?.[1]).toBe('session.closed');
  }, 120_000);
});

if (server.skip !== undefined) {
  describe('PostgreSQL: a session changes owner', () => {
    it.skip(`skipped: ${server.skip}`, () => undefined);
  });
}
