/**
 * The router of commands through the log on its own (ADR-0052), over an in-memory command
 * table that keeps the contract of store/commands.ts and a fake clock: what is carried out
 * where, what is withdrawn at the deadline and never carried out after, what a dead owner's
 * accepted command settles as, and that a malformed recorded command is never carried out.
 * The stores' own tables are held to the same contract by the store suites.
 */
import type { JsonObject } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { CommandRouter } from '../src/commands/router.js';
import { RuntimeError } from '../src/errors.js';
import type { RuntimeSession } from '../src/session/session.js';
import type { CommandTable, NewCommand, StoredCommand } from '../src/store/commands.js';
import { createMemoryEventStore } from '../src/store/memory.js';
import type { EventStore, StoredSession } from '../src/store/types.js';
import { FakeClock } from './fake-clock.js';

/** One table shared by every "runtime" of a test; `holder` says who holds each lease. */
class Shared {
  readonly rows = new Map<string, StoredCommand>();
  readonly holder = new Map<string, string>();
  readonly listeners = new Set<() => void>();
  notify(): void {
    for (const l of [...this.listeners]) l();
  }
}

function tableFor(shared: Shared, owner: string): CommandTable {
  const held = (sessionId: string): boolean => shared.holder.get(sessionId) === owner;
  return {
    owner,
    enqueue(c: NewCommand) {
      if (shared.rows.has(c.commandId)) return Promise.reject(new Error('duplicate'));
      shared.rows.set(c.commandId, { ...c, issuedBy: owner, state: 'pending' });
      shared.notify();
      return Promise.resolve();
    },
    get: (id) => Promise.resolve(shared.rows.get(id)),
    pendingSessions: (limit) =>
      Promise.resolve(
        new Set(
          [...shared.rows.values()]
            .filter((c) => c.state === 'pending')
            .map((c) => c.sessionId)
            .slice(0, limit),
        ),
      ),
    unsettled: (sessionId, limit) =>
      Promise.resolve(
        [...shared.rows.values()]
          .filter((c) => c.sessionId === sessionId && c.state !== 'settled')
          .slice(0, limit),
      ),
    accept(id) {
      const c = shared.rows.get(id);
      if (c === undefined || c.state !== 'pending') return Promise.resolve(false);
      if (!held(c.sessionId)) {
        return Promise.reject(new RuntimeError('store_unavailable', 'lease_lost', 'lost'));
      }
      shared.rows.set(id, { ...c, state: 'accepted', acceptedBy: owner });
      shared.notify();
      return Promise.resolve(true);
    },
    settle(id, settlement: JsonObject) {
      const c = shared.rows.get(id);
      if (c === undefined || c.state === 'settled') return Promise.resolve(false);
      const withdrawing = settlement['outcome'] === 'withdrawn';
      if (withdrawing ? c.state !== 'pending' : !held(c.sessionId)) return Promise.resolve(false);
      shared.rows.set(id, { ...c, state: 'settled', settlement });
      shared.notify();
      return Promise.resolve(true);
    },
    watch(onChange) {
      shared.listeners.add(onChange);
      return Promise.resolve(() => shared.listeners.delete(onChange));
    },
    owners: () =>
      Promise.resolve(
        new Map([...shared.holder].map(([s, o]) => [s, { owner: o, self: o === owner }])),
      ),
    ownerOf: (sessionId) => {
      const o = shared.holder.get(sessionId);
      return Promise.resolve(o === undefined ? undefined : { owner: o, self: o === owner });
    },
  };
}

const OPEN: StoredSession = {
  sessionId: 'ses_1',
  state: 'ready',
  defaultProfile: 'm',
  openedAt: '2026-12-05T00:00:00.000Z',
  updatedAt: '2026-12-05T00:00:00.000Z',
  lastSequence: 2,
};

function storeWith(table: CommandTable, summary: StoredSession | null = OPEN): EventStore {
  return {
    ...createMemoryEventStore(),
    getSession: () => Promise.resolve(summary ?? undefined),
    commands: table,
  };
}

interface Done {
  readonly steers: string[];
  readonly answers: string[];
}

function fakeSession(done: Done, refuse?: RuntimeError): RuntimeSession {
  return {
    id: 'ses_1',
    respond: (interactionId: string) => {
      if (refuse !== undefined) return Promise.reject(refuse);
      done.answers.push(interactionId);
      return Promise.resolve();
    },
    steer: (input: unknown) => {
      done.steers.push(String(input));
      return Promise.resolve();
    },
  } as unknown as RuntimeSession;
}

let ids = 0;
function router(
  shared: Shared,
  owner: string,
  clock: FakeClock,
  live: RuntimeSession | undefined,
  resume: () => Promise<RuntimeSession> = () => Promise.reject(new Error('no resume')),
): CommandRouter {
  const table = tableFor(shared, owner);
  return new CommandRouter({
    store: storeWith(table),
    clock,
    ids: (prefix) => `${prefix}_${String((ids += 1))}`,
    timeoutMs: 5_000,
    live: () => live,
    resume,
    liveIds: () => (live === undefined ? [] : ['ses_1']),
    settleDead: () => Promise.resolve(),
  });
}

/** Lets every promise chain that can move on do so. */
async function settleMicrotasks(): Promise<void> {
  for (let i = 0; i < 50; i += 1) await new Promise((r) => setImmediate(r));
}

describe('the command router', () => {
  it('routes to the lease holder, which carries the command out once and settles it', async () => {
    const shared = new Shared();
    shared.holder.set('ses_1', 'A');
    const clock = new FakeClock();
    const done: Done = { steers: [], answers: [] };
    const a = router(shared, 'A', clock, fakeSession(done));
    const b = router(shared, 'B', clock, undefined);
    await Promise.all([a.start(), b.start()]);
    await b.route('ses_1', { kind: 'steer', input: 'more' });
    expect(done.steers).toEqual(['more']);
    const rows = [...shared.rows.values()];
    expect(rows.map((r) => [r.state, r.acceptedBy, r.settlement])).toEqual([
      ['settled', 'A', { outcome: 'done' }],
    ]);
    a.stop();
    b.stop();
  });

  it("passes the owner's typed refusal back with its reason", async () => {
    const shared = new Shared();
    shared.holder.set('ses_1', 'A');
    const clock = new FakeClock();
    const refusal = new RuntimeError('invalid_request', 'interaction_settled', 'already settled');
    const a = router(shared, 'A', clock, fakeSession({ steers: [], answers: [] }, refusal));
    const b = router(shared, 'B', clock, undefined);
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

  it('withdraws a command nobody accepted by the deadline: session_unowned, and never carried out after', async () => {
    const shared = new Shared();
    shared.holder.set('ses_1', 'A'); // A holds the lease but is not running (paused)
    const clock = new FakeClock();
    const b = router(shared, 'B', clock, undefined);
    await b.start();
    const routed = b.route('ses_1', { kind: 'steer', input: 'late' });
    const outcome = routed.then(
      () => 'resolved',
      (e: unknown) => (e as RuntimeError).reason,
    );
    await settleMicrotasks();
    clock.advance(5_000);
    expect(await outcome).toBe('session_unowned');
    const [row] = [...shared.rows.values()];
    expect(row?.settlement).toEqual({ outcome: 'withdrawn' });
    // A wakes up: its pass finds nothing to carry out
    const done: Done = { steers: [], answers: [] };
    const a = router(shared, 'A', clock, fakeSession(done));
    await a.start();
    await a.owner.idle();
    expect(done.steers).toEqual([]);
    a.stop();
    b.stop();
  });

  it('an accepted command whose owner never settles it ends command_outcome_unknown after a second wait', async () => {
    const shared = new Shared();
    shared.holder.set('ses_1', 'A');
    const clock = new FakeClock();
    const b = router(shared, 'B', clock, undefined);
    await b.start();
    const outcome = b.route('ses_1', { kind: 'steer', input: 'x' }).then(
      () => 'resolved',
      (e: unknown) => (e as RuntimeError).reason,
    );
    await settleMicrotasks();
    // A accepted it and then stopped answering
    const [row] = [...shared.rows.values()];
    if (row === undefined) throw new Error('not enqueued');
    expect(await tableFor(shared, 'A').accept(row.commandId)).toBe(true);
    clock.advance(5_000);
    await settleMicrotasks();
    expect(shared.rows.get(row.commandId)?.state).toBe('accepted');
    clock.advance(5_000);
    expect(await outcome).toBe('command_outcome_unknown');
    b.stop();
  });

  it('the taker-over settles what the dead owner accepted as unknown and carries out what was pending', async () => {
    const shared = new Shared();
    shared.holder.set('ses_1', 'A');
    const a = tableFor(shared, 'A');
    const body = { kind: 'steer', input: 'one' };
    await a.enqueue({ commandId: 'cmd_x', sessionId: 'ses_1', body, issuedAt: OPEN.openedAt });
    await a.enqueue({ commandId: 'cmd_y', sessionId: 'ses_1', body, issuedAt: OPEN.openedAt });
    expect(await a.accept('cmd_x')).toBe(true); // A dies here
    shared.holder.set('ses_1', 'C');
    const done: Done = { steers: [], answers: [] };
    const c = router(shared, 'C', new FakeClock(), fakeSession(done));
    await c.owner.settleOrphans('ses_1');
    await c.owner.idle();
    expect(shared.rows.get('cmd_x')?.settlement).toMatchObject({
      outcome: 'refused',
      error: { details: { reason: 'command_outcome_unknown' } },
    });
    expect(shared.rows.get('cmd_y')?.settlement).toEqual({ outcome: 'done' });
    expect(done.steers).toEqual(['one']);
  });

  it('a malformed recorded command is settled command_invalid and never carried out', async () => {
    const shared = new Shared();
    shared.holder.set('ses_1', 'A');
    await tableFor(shared, 'B').enqueue({
      commandId: 'cmd_bad',
      sessionId: 'ses_1',
      body: {
        kind: 'respond',
        interactionId: 'int_1',
        response: { kind: 'approval', decision: 'yes please' },
      },
      issuedAt: OPEN.openedAt,
    });
    const done: Done = { steers: [], answers: [] };
    const a = router(shared, 'A', new FakeClock(), fakeSession(done));
    a.owner.kick();
    await a.owner.idle();
    expect(done.answers).toEqual([]);
    expect(shared.rows.get('cmd_bad')?.settlement).toMatchObject({
      outcome: 'refused',
      error: { details: { reason: 'command_invalid' } },
    });
  });

  it('a session nobody holds is taken over here and the command carried out locally', async () => {
    const shared = new Shared();
    const done: Done = { steers: [], answers: [] };
    const resumed = fakeSession(done);
    let resumes = 0;
    const b = router(shared, 'B', new FakeClock(), undefined, () => {
      resumes += 1;
      return Promise.resolve(resumed);
    });
    await b.route('ses_1', { kind: 'steer', input: 'mine now' });
    expect([resumes, done.steers, shared.rows.size]).toEqual([1, ['mine now'], 0]);
  });

  it('a command arriving while another runtime takes the session over waits for it and is carried out by it once', async () => {
    const shared = new Shared();
    shared.holder.set('ses_1', 'C'); // C holds the new lease, its resume still in progress
    const clock = new FakeClock();
    const done: Done = { steers: [], answers: [] };
    const takeover: { open?: RuntimeSession } = {};
    const c = new CommandRouter({
      store: storeWith(tableFor(shared, 'C')),
      clock,
      ids: (p) => `${p}_c${String((ids += 1))}`,
      timeoutMs: 5_000,
      live: () => takeover.open,
      resume: () => Promise.reject(new Error('not here')),
      liveIds: () => (takeover.open === undefined ? [] : ['ses_1']),
      settleDead: () => Promise.resolve(),
    });
    const b = router(shared, 'B', clock, undefined);
    await Promise.all([c.start(), b.start()]);
    const routed = b.route('ses_1', { kind: 'steer', input: 'during takeover' });
    await settleMicrotasks();
    expect([...shared.rows.values()].map((r) => r.state)).toEqual(['pending']);
    // the takeover completes: the session is live in C, which looks for its commands
    takeover.open = fakeSession(done);
    await c.owner.settleOrphans('ses_1');
    await routed;
    expect(done.steers).toEqual(['during takeover']);
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
      const r = new CommandRouter({
        store: storeWith(tableFor(shared, 'B'), summary),
        clock: new FakeClock(),
        ids: (p) => `${p}_z`,
        timeoutMs: 5_000,
        live: () => undefined,
        resume: () => Promise.reject(new Error('no')),
        liveIds: () => [],
        settleDead: () => Promise.resolve(),
      });
      await expect(r.route('ses_1', { kind: 'close' })).rejects.toMatchObject({ reason });
    }
    expect(shared.rows.size).toBe(0);
  });
});
