/**
 * A clean takeover (real codex, real PostgreSQL). The owner waits for an approval and is paused
 * (SIGSTOP) past its lease; its codex still holds the thread. A standby's `resumeSession` takes
 * the lapsed lease, but codex refuses to resume a thread another app-server has open: the refusal
 * is retryable (`recovery_thread_open_elsewhere`) and the log is exactly as it was — no settlement
 * written, the lease given back. Once the old owner is gone, the same call completes the
 * takeover: the owner's open work is settled first, then the standby's own turn runs.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execCommandStep, textStep } from '../../src/testing/index.js';
import { untilLeaseLapsed } from '../../packages/agent-runtime/test/pg-cluster.js';
import { usePgCluster } from '../../packages/agent-runtime/test/pg-suite.js';
import { LEASE_MS, startFleet, type Host } from './harness.js';

const pg = usePgCluster();

/** Bounded: until `host` printed `count` lines that pass `test`. */
async function linesOf(host: Host, test: (l: string) => boolean, count: number): Promise<void> {
  for (const deadline = Date.now() + 60_000; host.lines.filter(test).length < count;) {
    if (Date.now() > deadline) throw new Error(`fewer than ${String(count)} lines seen`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(pg.skip !== undefined)('a clean takeover (PostgreSQL)', () => {
  it('a paused owner whose codex holds the thread: the refused takeover writes nothing and is retryable; it completes once the old codex is gone', async () => {
    const fleet = await startFleet(pg, 'clean_takeover');
    const marker = join(fleet.iso.workspace, 'never-approved');
    fleet.server.enqueue(
      execCommandStep(`touch ${marker}`, { escalate: true, justification: 'x' }),
    );
    const owner = fleet.host({ mode: 'turn', prompt: 'make the marker', answer: true });
    const sessionId = (await owner.line((l) => l.startsWith('SESSION '), 'the session')).slice(8);
    await owner.line((l) => l.startsWith('PENDING '), 'the pending approval');
    await owner.saw('interaction.requested', 'the durable request');

    // started while the owner holds its lease: its own start takes nothing over
    const standby = fleet.host({
      mode: 'turn',
      sessionId,
      waitGo: true,
      retryRefused: true,
      prompt: 'carry on',
      finish: true,
    });
    await standby.line((l) => l === 'READY', 'the standby runtime');

    owner.signal('SIGSTOP');
    await untilLeaseLapsed(fleet.url, fleet.schema, sessionId, 30_000);
    const before = await fleet.stored(sessionId);
    standby.send('GO');
    const refused = (l: string): boolean => l.startsWith('REFUSED ');
    // two attempts, each taking the lapsed lease, each refused by codex
    await linesOf(standby, refused, 2);
    expect(standby.lines.filter(refused)[0]).toBe(
      'REFUSED resume_refused recovery_thread_open_elsewhere',
    );
    expect(await fleet.stored(sessionId)).toEqual(before);
    expect(standby.lines.some((l) => l.startsWith('RESUMED '))).toBe(false);

    // the old owner goes, and its codex with it: the standby's next attempt completes
    fleet.server.enqueue(textStep(['carried on']));
    owner.signal('SIGKILL');
    await owner.exited;
    await standby.line((l) => l.startsWith(`RESUMED ${sessionId} `), 'the takeover', LEASE_MS * 20);
    expect(await standby.line((l) => l.startsWith('DONE '), 'the new turn')).toBe('DONE succeeded');
    await standby.line((l) => l === 'CLOSED', 'the close');
    await standby.exited;

    const after = await fleet.stored(sessionId);
    expect(after.slice(0, before.length)).toEqual(before);
    // the takeover's settlement comes first, in one piece, before anything of the new owner
    expect(after.slice(before.length, before.length + 3).map(([, type]) => type)).toEqual([
      'interaction.settled',
      'run.finished',
      'turn.settled',
    ]);
    expect(after.map(([, type]) => type).filter((t) => t === 'turn.started')).toHaveLength(2);
    expect(existsSync(marker)).toBe(false);
    expect(await fleet.survivors([owner, standby])).toEqual([]);
  }, 240_000);
});

if (pg.skip !== undefined) {
  describe('a clean takeover (PostgreSQL)', () => {
    it.skip(`skipped: ${pg.skip}`, () => undefined);
  });
}
