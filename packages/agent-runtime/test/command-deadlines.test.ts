/**
 * What the command router (ADR-0052) does at its deadlines and after an owner died, on a fake
 * clock over the in-memory command table: a command nobody accepted is withdrawn at the deadline
 * and never carried out after, one accepted and never settled ends unknown, a dead owner's
 * accepted command is settled unknown by the taker-over, and a malformed recorded command is
 * never carried out.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock } from './fake-clock.js';
import { OPEN, Shared, fakeSession, outcomeOf, router, settleMicrotasks } from './command-table.js';

describe('command deadlines and dead owners', () => {
  it('withdraws a command nobody accepted by the deadline: session_unowned, and never carried out after', async () => {
    const shared = new Shared('A'); // A holds the lease but is not running (paused)
    const clock = new FakeClock();
    const b = router(shared, 'B', clock);
    await b.start();
    const outcome = outcomeOf(b.route('ses_1', { kind: 'steer', input: 'late' }));
    await settleMicrotasks();
    clock.advance(5_000);
    expect(await outcome).toBe('session_unowned');
    const [row] = [...shared.rows.values()];
    expect(row?.settlement).toEqual({ outcome: 'withdrawn' });
    // A wakes up: its pass finds nothing to carry out
    const session = fakeSession();
    const a = router(shared, 'A', clock, { live: session });
    await a.start();
    await a.owner.idle();
    expect(session.done.steers).toEqual([]);
    a.stop();
    b.stop();
  });

  it('an accepted command whose owner never settles it ends command_outcome_unknown after a second wait', async () => {
    const shared = new Shared('A');
    const clock = new FakeClock();
    const b = router(shared, 'B', clock);
    await b.start();
    const outcome = outcomeOf(b.route('ses_1', { kind: 'steer', input: 'x' }));
    await settleMicrotasks();
    // A accepted it and then stopped answering
    const [row] = [...shared.rows.values()];
    if (row === undefined) throw new Error('not enqueued');
    expect(await shared.table('A').accept(row.commandId)).toBe(true);
    clock.advance(5_000);
    await settleMicrotasks();
    expect(shared.rows.get(row.commandId)?.state).toBe('accepted');
    clock.advance(5_000);
    expect(await outcome).toBe('command_outcome_unknown');
    b.stop();
  });

  it('the taker-over settles what the dead owner accepted as unknown and carries out what was pending', async () => {
    const shared = new Shared('A');
    const a = shared.table('A');
    const body = { kind: 'steer', input: 'one' };
    await a.enqueue({ commandId: 'cmd_x', sessionId: 'ses_1', body, issuedAt: OPEN.openedAt });
    await a.enqueue({ commandId: 'cmd_y', sessionId: 'ses_1', body, issuedAt: OPEN.openedAt });
    expect(await a.accept('cmd_x')).toBe(true); // A dies here
    shared.holder.set('ses_1', 'C');
    const session = fakeSession();
    const c = router(shared, 'C', new FakeClock(), { live: session });
    await c.owner.settleOrphans('ses_1');
    await c.owner.idle();
    expect(shared.rows.get('cmd_x')?.settlement).toMatchObject({
      outcome: 'refused',
      error: { details: { reason: 'command_outcome_unknown' } },
    });
    expect(shared.rows.get('cmd_y')?.settlement).toEqual({ outcome: 'done' });
    expect(session.done.steers).toEqual(['one']);
  });

  it('a malformed recorded command is settled command_invalid and never carried out', async () => {
    const shared = new Shared('A');
    await shared.table('B').enqueue({
      commandId: 'cmd_bad',
      sessionId: 'ses_1',
      body: {
        kind: 'respond',
        interactionId: 'int_1',
        response: { kind: 'approval', decision: 'yes please' },
      },
      issuedAt: OPEN.openedAt,
    });
    const session = fakeSession();
    const a = router(shared, 'A', new FakeClock(), { live: session });
    a.owner.kick();
    await a.owner.idle();
    expect(session.done.answers).toEqual([]);
    expect(shared.rows.get('cmd_bad')?.settlement).toMatchObject({
      outcome: 'refused',
      error: { details: { reason: 'command_invalid' } },
    });
  });
});
