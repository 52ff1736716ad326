/**
 * The console over a log other processes write: process A (a child) owns a session on a shared
 * PostgreSQL schema; this process (B) owns another and runs the console. The list shows each
 * session's owner and live state from the log and the leases, the inbox holds A's approval, and
 * an answer, an interrupt and a turn from B's console are carried out by A through the command
 * table; a command nobody carries out in time is refused, typed.
 */
import { describe, expect, it } from 'vitest';
import { startConsole, type ConsoleServer } from '@relvo-labs/agent-runtime/console';
import { usePgCluster } from '../pg-suite.js';
import { onCleanup, tempDir } from '../support.js';
import { twoProcesses } from './two-processes.js';

const pg = usePgCluster();

async function call(
  server: ConsoleServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(new URL(path, server.url), {
    method,
    headers: {
      authorization: `Bearer ${server.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

type Row = Record<string, unknown> & { sessionId: string };

async function rows(server: ConsoleServer): Promise<Map<string, Row>> {
  const list = (await call(server, 'GET', '/api/sessions')).json['sessions'] as Row[];
  return new Map(list.map((r) => [r.sessionId, r]));
}

/** Bounded: until the session's row says `liveState`. */
async function untilState(server: ConsoleServer, id: string, liveState: string): Promise<Row> {
  for (const deadline = Date.now() + 15_000; ;) {
    const row = (await rows(server)).get(id);
    if (row?.['liveState'] === liveState) return row;
    if (Date.now() > deadline) throw new Error(`${id} never ${liveState}: ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.skipIf(pg.skip !== undefined)('the console over the whole log (PostgreSQL)', () => {
  it("lists both processes' sessions with owner and live state; A's approval, interrupt and turn are carried out by A from B's console; a refusal is typed", async () => {
    const url = pg.cluster().connectionString;
    const schema = 'console_whole';
    const { a, theirs, runtime } = await twoProcesses(url, schema);
    const mine = (await runtime.openSession({ workspace: tempDir() })).id;
    const server = await startConsole({ runtime });
    onCleanup(() => server.close());

    a.send('ask');
    const interactionId = (await a.line((l) => l.startsWith('ASKED '), 'the ask')).slice(6);
    // A has recorded the ask when it says so; B learns of it from the log, a moment later
    expect(await untilState(server, theirs, 'waiting')).toMatchObject({ owner: 'elsewhere' });
    expect((await rows(server)).get(mine)).toMatchObject({
      owner: 'this_runtime',
      liveState: 'idle',
    });
    const inbox = (await call(server, 'GET', '/api/inbox')).json['pending'];
    expect(inbox).toEqual([
      expect.objectContaining({ sessionId: theirs, interactionId, owner: 'elsewhere' }),
    ]);

    // A paused: nobody carries the command out within B's bound; it is withdrawn, typed
    a.signal('SIGSTOP');
    const unowned = await call(server, 'POST', `/api/sessions/${theirs}/interrupt`);
    a.signal('SIGCONT');
    expect([unowned.status, unowned.json]).toEqual([503, { refused: 'session_unowned' }]);

    const path = `/api/sessions/${theirs}/interactions/${interactionId}`;
    const answered = await call(server, 'POST', path, {
      kind: 'approval',
      decision: 'approved',
      mode: 'once',
    });
    expect([answered.status, answered.json]).toEqual([200, { answered: interactionId }]);
    await a.line((l) => l === 'RESPONDED approved', "A's provider given the answer");
    expect(
      (await call(server, 'POST', path, { kind: 'approval', decision: 'denied' })).json,
    ).toEqual({ refused: 'interaction_settled' });
    const settled = (await runtime.readEvents(theirs)).filter(
      (e) => e.payload.type === 'interaction.settled' && e.payload.interactionId === interactionId,
    );
    expect(settled).toHaveLength(1);
    await untilState(server, theirs, 'running');
    expect((await call(server, 'GET', '/api/inbox')).json['pending']).toEqual([]);

    const interrupted = await call(server, 'POST', `/api/sessions/${theirs}/interrupt`);
    expect(interrupted.status).toBe(202);
    await a.line((l) => l === 'INTERRUPTED', "A's run interrupted");
    await untilState(server, theirs, 'idle');
    // the withdrawn interrupt was never carried out: A saw exactly the one that was settled
    expect(a.lines.filter((l) => l === 'INTERRUPTED')).toHaveLength(1);

    const turn = await call(server, 'POST', `/api/sessions/${theirs}/turns`, { input: 'from B' });
    expect(turn.status).toBe(202);
    expect(turn.json).toMatchObject({ turnId: expect.any(String), providerId: 'manual' });
    await a.line((l) => l === 'TURN from B', "A's provider given the turn");
    expect((await untilState(server, theirs, 'running'))['activeRunId']).toBe(turn.json['runId']);
    a.send('finish');
    await untilState(server, theirs, 'idle');
    expect((await rows(server)).get(mine)).toMatchObject({ liveState: 'idle' });
  }, 90_000);
});

if (pg.skip !== undefined) {
  describe('the console over the whole log (PostgreSQL)', () => {
    it.skip(`skipped: ${pg.skip}`, () => undefined);
  });
}
