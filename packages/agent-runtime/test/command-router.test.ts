/**
 * The router of commands through the log on its own (ADR-0052), over an in-memory command
 * table that keeps the contract of store/commands.ts and a fake clock: what is carried out
 * where, and what is refused before anything is recorded. What the deadlines withdraw or settle
 * is command-deadlines.test.ts. The stores' own tables are held to the same contract by the
 * store suites.
 */
import type { RuntimeSession } from '../src/session/session.js';
import { describe, expect, it } from 'vitest';
import { RuntimeError } from '../src/errors.js';
import { FakeClock } from './fake-clock.js';
import { OPEN, Shared, fakeSession, router, settleMicrotasks } from './command-table.js';

describe('the command router', () => {
  it('routes to the lease holder, which carries the command out once and settles it', async () => {
    const shared = new Shared('A');
    const clock = new FakeClock();
    const session = fakeSession();
    const a = router(shared, 'A', clock, { live: session });
    const b = router(shared, 'B', clock);
    await Promise.all([a.start(), b.start()]);
    await b.route('ses_1', { kind: 'steer', input: 'more' });
    expect(session.done.steers).toEqual(['more']);
    const rows = [...shared.rows.values()];
    expect(rows.map((r) => [r.state, r.acceptedBy, r.settlement])).toEqual([
      ['settled', 'A', { outcome: 'done' }],
    ]);
    a.stop();
    b.stop();
  });

  it("passes the owner's typed refusal back with its reason", async () => {
    const shared = new Shared('A');
    const clock = new FakeClock();
    const refusal = new RuntimeError('invalid_request', 'interaction_settled', 'already settled');
    const a = router(shared, 'A', clock, { live: fakeSession(refusal) });
    const b = router(shared, 'B', clock);
    await Promise.all([a.start(), b.start()]);
    const body = {
      kind: 'respond' as const,
      interactionId: 'int_1',
      response: { kind: 'approval' as const, decision: 'denied' as const },
    };
    await expect(b.route('ses_1', body)).rejects.toMatchObject({
      reason: 'interaction_settled',
      code: 'invalid_request',
    });
    a.stop();
    b.stop();
  });

  it('a session nobody holds is taken over here and the command carried out locally', async () => {
    const shared = new Shared();
    const resumed = fakeSession();
    let resumes = 0;
    const b = router(shared, 'B', new FakeClock(), {
      resume: () => {
        resumes += 1;
        return Promise.resolve(resumed);
      },
    });
    await b.route('ses_1', { kind: 'steer', input: 'mine now' });
    expect([resumes, resumed.done.steers, shared.rows.size]).toEqual([1, ['mine now'], 0]);
  });

  it('a command arriving while another runtime takes the session over waits for it and is carried out by it once', async () => {
    const shared = new Shared('C'); // C holds the new lease, its resume still in progress
    const clock = new FakeClock();
    const takeover: { open?: RuntimeSession } = {};
    const c = router(shared, 'C', clock, {
      live: () => takeover.open,
      resume: () => Promise.reject(new Error('not here')),
    });
    const b = router(shared, 'B', clock);
    await Promise.all([c.start(), b.start()]);
    const routed = b.route('ses_1', { kind: 'steer', input: 'during takeover' });
    await settleMicrotasks();
    expect([...shared.rows.values()].map((r) => r.state)).toEqual(['pending']);
    // the takeover completes: the session is live in C, which looks for its commands
    const session = fakeSession();
    takeover.open = session;
    await c.owner.settleOrphans('ses_1');
    await routed;
    expect(session.done.steers).toEqual(['during takeover']);
    expect([...shared.rows.values()].map((r) => r.settlement)).toEqual([{ outcome: 'done' }]);
    c.stop();
    b.stop();
  });

  it('unknown and closed sessions are refused, typed, without recording anything', async () => {
    const shared = new Shared();
    for (const [summary, reason] of [
      [null, 'unknown_session'],
      [{ ...OPEN, state: 'closed' as const }, 'session_closed'],
    ] as const) {
      const r = router(shared, 'B', new FakeClock(), {
        summary,
        resume: () => Promise.reject(new Error('no')),
      });
      await expect(r.route('ses_1', { kind: 'close' })).rejects.toMatchObject({ reason });
    }
    expect(shared.rows.size).toBe(0);
  });
});
