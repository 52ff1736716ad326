/**
 * A fenced host never acts (real codex, real PostgreSQL). The model asks to run a command that
 * creates a file, with escalation, so codex waits for an approval. Control: a host that holds its
 * lease approves, and the file appears. Then: the owner is paused (SIGSTOP) past its lease while
 * the approval is pending, another runtime takes the session over and records the approval
 * cancelled, the owner is continued and its host approves: the answer is refused `lease_lost`
 * before it reaches codex, and the file never appears. And a host killed after codex took the
 * approval but before the settlement committed: the next owner's log says the answer was
 * delivered, outcome unknown (the command did run), never cancelled.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execCommandStep, textStep } from '../../src/testing/index.js';
import { pgQuery, untilLeaseLapsed } from '../../packages/agent-runtime/test/pg-cluster.js';
import { usePgCluster } from '../../packages/agent-runtime/test/pg-suite.js';
import { startFleet, type Fleet, type Host } from './harness.js';

const pg = usePgCluster();

/**
 * An owner whose turn waits for the approval of `touch <marker>`: [host, sessionId]. With
 * `finish` the model answers once more after the command and the host closes the session.
 */
async function ownerAwaitingApproval(
  fleet: Fleet,
  marker: string,
  finish: boolean,
): Promise<[Host, string]> {
  fleet.server.enqueue(execCommandStep(`touch ${marker}`, { escalate: true, justification: 'x' }));
  if (finish) fleet.server.enqueue(textStep(['done']));
  const owner = fleet.host({ mode: 'turn', prompt: 'make the marker', answer: true, finish });
  const sessionId = (await owner.line((l) => l.startsWith('SESSION '), 'the session')).slice(8);
  await owner.line((l) => l.startsWith('PENDING '), 'the pending approval');
  // its subscription saw the request: it is durable (a pause cannot lose it)
  await owner.saw('interaction.requested', 'the durable request');
  return [owner, sessionId];
}

/**
 * Once the owner's lease lapsed, a runtime's start takes the session over and settles what the
 * owner left open (resumable: its record is kept); the new owner keeps running.
 */
async function takeOver(fleet: Fleet, sessionId: string): Promise<Host> {
  await untilLeaseLapsed(fleet.url, fleet.schema, sessionId, 30_000);
  const taker = fleet.host({ mode: 'follow', sessionId });
  expect(await taker.line((l) => l.startsWith('STARTED '), 'the takeover')).toBe(
    `STARTED ${sessionId}|`,
  );
  return taker;
}

/** The session's interaction payloads as stored, in order. */
async function interactionLog(fleet: Fleet, sessionId: string): Promise<Record<string, unknown>[]> {
  const rows = await pgQuery<{ payload: string }>(
    fleet.url,
    `SELECT payload::text AS payload FROM ${fleet.schema}.events
     WHERE session_id = $1 AND type IN ('interaction.requested', 'interaction.answered',
       'interaction.settled') ORDER BY sequence`,
    [sessionId],
  );
  return rows.map((r) => JSON.parse(r.payload) as Record<string, unknown>);
}

/** Bounded: until `path` exists (true) or `ms` passed (false). */
async function appears(path: string, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    if (existsSync(path)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return existsSync(path);
}

describe.skipIf(pg.skip !== undefined)('a fenced codex host never acts (PostgreSQL)', () => {
  it('control: the owner approves under its lease and the command runs; paused past its lease and taken over, its approval is lease_lost and the command never runs', async () => {
    const fleet = await startFleet(pg, 'fenced_codex');

    const ranMarker = join(fleet.iso.workspace, 'control-marker');
    const [control] = await ownerAwaitingApproval(fleet, ranMarker, true);
    const answeredAt = Date.now();
    control.send('ANSWER');
    expect(await control.line((l) => l.startsWith('RESPONDED '), 'the answer')).toBe(
      'RESPONDED ok',
    );
    expect(await appears(ranMarker, 30_000)).toBe(true);
    // how long a delivered approval takes to act on this machine, with a wide margin (it took
    // tens of ms under load: the floor is the margin)
    const actsWithin = Math.max(2_000, (Date.now() - answeredAt) * 5);
    // closed cleanly: the takeover below finds only the fenced session
    await control.line((l) => l === 'CLOSED', 'the control close', 60_000);
    await control.exited;

    const marker = join(fleet.iso.workspace, 'fenced-marker');
    const [owner, sessionId] = await ownerAwaitingApproval(fleet, marker, false);
    owner.signal('SIGSTOP');
    const taker = await takeOver(fleet, sessionId);
    const requestsBefore = fleet.server.requests.length;
    owner.signal('SIGCONT');
    owner.send('ANSWER');
    expect(await owner.line((l) => l.startsWith('RESPONDED '), 'the answer', 30_000)).toBe(
      'RESPONDED lease_lost',
    );
    // codex never got the approval: no command ran and codex asked the model nothing more
    expect(await appears(marker, actsWithin)).toBe(false);
    expect(fleet.server.requests.length).toBe(requestsBefore);

    // the log is the new owner's: cancelled, and no answer was ever recorded
    const payloads = await interactionLog(fleet, sessionId);
    expect(payloads.map((p) => p.type)).toEqual(['interaction.requested', 'interaction.settled']);
    expect(payloads[1]).toMatchObject({ settlement: { outcome: 'cancelled' } });
    owner.signal('SIGKILL');
    taker.signal('SIGKILL');
    await owner.exited;
    await taker.exited;
    expect(await fleet.survivors([control, owner, taker])).toEqual([]);
  }, 240_000);

  it('killed after codex took the approval but before the settlement committed: the command ran, and the next owner records the answer delivered, outcome unknown', async () => {
    const fleet = await startFleet(pg, 'crashed_codex');
    const marker = join(fleet.iso.workspace, 'ran-marker');
    fleet.server.enqueue(
      execCommandStep(`touch ${marker}`, { escalate: true, justification: 'x' }),
    );
    fleet.server.enqueue(textStep(['done']));
    const owner = fleet.host({ mode: 'turn', prompt: 'make it', answer: true, slowSettle: true });
    const sessionId = (await owner.line((l) => l.startsWith('SESSION '), 'the session')).slice(8);
    await owner.line((l) => l.startsWith('PENDING '), 'the pending approval');
    await owner.saw('interaction.requested', 'the durable request');
    owner.send('ANSWER');
    await owner.line((l) => l === 'SLOW', 'the slow settlement commit');
    // codex had the approval: the command runs while the settlement's commit hangs
    expect(await appears(marker, 30_000)).toBe(true);
    owner.signal('SIGKILL');
    await owner.exited;
    const taker = await takeOver(fleet, sessionId);
    const payloads = await interactionLog(fleet, sessionId);
    const approved = { kind: 'approval', decision: 'approved', mode: 'once' };
    expect(payloads).toEqual([
      expect.objectContaining({ type: 'interaction.requested' }),
      expect.objectContaining({ type: 'interaction.answered', response: approved }),
      expect.objectContaining({
        type: 'interaction.settled',
        settlement: expect.objectContaining({
          outcome: 'responded',
          response: approved,
          error: expect.objectContaining({ details: { reason: 'answer_outcome_unknown' } }),
        }),
      }),
    ]);
    taker.signal('SIGKILL');
    await taker.exited;
    expect(await fleet.survivors([owner, taker])).toEqual([]);
  }, 240_000);
});

if (pg.skip !== undefined) {
  describe('a fenced codex host never acts (PostgreSQL)', () => {
    it.skip(`skipped: ${pg.skip}`, () => undefined);
  });
}
