/**
 * A session outlives its host: two runtime processes on one PostgreSQL database drive the real
 * codex binary (persistence 'thread', scripted model). The owner is killed with SIGKILL while its
 * turn waits for an approval; a standby runtime takes the session over once the lease lapses,
 * settles the dead run once (failed, its outcome unknown) and the pending approval (cancelled),
 * resumes the codex thread, and its next turn continues the same conversation. A third process
 * following the session sees one gapless sequence across the handover; no codex of the dead
 * host is left.
 */
import { describe, expect, it } from 'vitest';
import { execCommandStep, scriptedUsage, textStep } from '../../src/testing/index.js';
import { usePgCluster } from '../../packages/agent-runtime/test/pg-suite.js';
import { pgQuery } from '../../packages/agent-runtime/test/pg-cluster.js';
import { followed, killAndTakeOver, startFleet } from './harness.js';

const pg = usePgCluster();

describe.skipIf(pg.skip !== undefined)('a codex session changes host (PostgreSQL)', () => {
  it('owner killed mid-turn; the standby takes over, settles the run once and continues the thread; a follower sees one gapless sequence; no codex left', async () => {
    const fleet = await startFleet(pg, 'takeover_codex');
    const word = `MANGO-${Date.now()}`;
    // the first turn asks to run a command and waits for the answer when its host dies
    fleet.server.enqueue(execCommandStep('echo never', { escalate: true, justification: 'x' }));
    const owner = fleet.host({ mode: 'turn', prompt: `remember ${word}` });
    const sessionId = (await owner.line((l) => l.startsWith('SESSION '), 'the session')).slice(8);
    await owner.saw('interaction.requested', 'the pending approval');
    const follower = fleet.host({ mode: 'follow', sessionId });
    expect(await follower.startedClean()).toBe(true);
    await follower.line((l) => l.startsWith('SEQ '), 'the follower replay');
    const standby = fleet.host({
      mode: 'turn',
      sessionId,
      prompt: 'what did I say?',
      waitGo: true,
      finish: true,
    });
    fleet.server.enqueue(textStep(['You said ', word], { usage: scriptedUsage(60, 4, 0, 0) }));

    expect(fleet.alive([owner]).filter((p) => p.endsWith(' codex'))).not.toEqual([]);
    await killAndTakeOver(owner, standby, sessionId);
    await owner.exited;
    // nothing of the dead host is left: its codex died with it (parent-death signal)
    expect(await fleet.survivors([owner])).toEqual([]);
    expect(await standby.line((l) => l.startsWith('DONE '), 'the next turn', 90_000)).toBe(
      'DONE succeeded',
    );
    await standby.line((l) => l === 'CLOSED', 'the close');
    await follower.line((l) => l === 'END', 'the end of the session', 30_000);

    // the next turn's model request carries the earlier turn, then the new one
    const body = JSON.stringify(fleet.server.requests.at(-1)?.body);
    const earlier = body.indexOf(`remember ${word}`);
    expect(earlier).toBeGreaterThan(-1);
    expect(body.indexOf('what did I say?')).toBeGreaterThan(earlier);

    // the follower saw exactly what is stored, each once, in order
    const seen = followed(follower);
    expect(seen).toEqual(await fleet.stored(sessionId));
    expect(seen.map(([s]) => s)).toEqual(seen.map((_, i) => i + 1));

    // the dead run settled once: failed, outcome unknown; its approval cancelled once
    const rows = await pgQuery<{ type: string; payload: string }>(
      fleet.url,
      `SELECT type, payload::text AS payload FROM takeover_codex.events
       WHERE session_id = $1 AND type IN ('run.finished', 'interaction.settled', 'turn.settled')
       ORDER BY sequence`,
      [sessionId],
    );
    const payloads = rows.map((r) => JSON.parse(r.payload) as Record<string, unknown>);
    expect(payloads).toEqual([
      expect.objectContaining({
        type: 'interaction.settled',
        settlement: expect.objectContaining({ outcome: 'cancelled' }),
      }),
      expect.objectContaining({
        type: 'run.finished',
        termination: expect.objectContaining({
          outcome: 'failed',
          error: expect.objectContaining({
            details: expect.objectContaining({ reason: 'outcome_unknown_after_crash' }),
          }),
        }),
      }),
      expect.objectContaining({ type: 'turn.settled', state: 'failed' }),
      expect.objectContaining({
        type: 'run.finished',
        termination: expect.objectContaining({ outcome: 'succeeded' }),
      }),
      expect.objectContaining({ type: 'turn.settled', state: 'completed' }),
    ]);
    await standby.exited;
    await follower.exited;
    expect(await fleet.survivors([owner, standby, follower])).toEqual([]);
  }, 240_000);
});

if (pg.skip !== undefined) {
  describe('a codex session changes host (PostgreSQL)', () => {
    it.skip(`skipped: ${pg.skip}`, () => undefined);
  });
}
