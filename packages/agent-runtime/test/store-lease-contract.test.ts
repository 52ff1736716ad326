/**
 * The contract of stores shared by many runtimes, one suite run on every store: session leases
 * with fencing tokens, following another runtime's appends, and the command table (ADR-0052).
 * SQLite and PostgreSQL share; memory holds its own contract: one runtime owns it all.
 */
import type { EventStore } from '@relvo-labs/agent-runtime';
import { expect, it, type TestContext } from 'vitest';
import { closed, opened, stateChanged } from './store-envelopes.js';
import { expectReaderFollowsWriter } from './store-follow.js';
import { describeEachStore, refusal, type TestStore } from './store-kinds.js';
import { onCleanup, until } from './support.js';

const LEASE_MS = 300;

/** Bounded: until `store` takes the session over (the other holder's lease lapsed). */
async function takenOverBy(store: EventStore, sessionId: string): Promise<void> {
  for (const deadline = Date.now() + 10 * LEASE_MS + 5_000; ;) {
    if (await store.takeOver?.(sessionId)) return;
    if (Date.now() > deadline) throw new Error('the lease never lapsed');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** `opened`'s store and another on its data, with their command tables; a store without one is a visible skip. */
function commandTables(ctx: TestContext, opened: TestStore) {
  const [a, b] = [opened.store, opened.other()];
  const [ta, tb] = [a.commands, b.commands];
  if (ta === undefined || tb === undefined) ctx.skip('this store has no command table yet');
  return { a, b, ta, tb };
}

describeEachStore('$name store: leases, fencing and commands', (openStore, kind) => {
  const open = (leaseMs = LEASE_MS): TestStore => openStore({ leaseMs });

  if (kind.name === 'memory') {
    it('one runtime owns the whole store: no leases, no command table, a second claim refused', async () => {
      const { store } = open();
      expect(['takeOver' in store, 'watch' in store, 'commands' in store]).toEqual([
        false,
        false,
        false,
      ]);
      await store.claim();
      expect(await refusal(store.claim())).toBe('store_locked');
      await store.append([opened('ses_m', 1)]);
      expect((await store.getSession('ses_m'))?.lastSequence).toBe(1);
    });
    return;
  }

  it('one owner per session: another store is refused until the lease lapses, then the stale owner is fenced off', async () => {
    const { store: a, other } = open();
    const b = other();
    // a is never claimed: nothing renews its lease
    await a.append([opened('ses_l', 1), stateChanged('ses_l', 2)]);
    expect(await refusal(b.append([stateChanged('ses_l', 3)]))).toBe('session_leased');
    expect(await b.takeOver?.('ses_l')).toBe(false);
    // readers are never blocked by the owner
    expect(await b.read('ses_l', { fromSequence: 1, limit: 10 })).toHaveLength(2);
    await takenOverBy(b, 'ses_l');
    await b.append([stateChanged('ses_l', 3)]);
    expect(await refusal(a.append([stateChanged('ses_l', 4)]))).toBe('lease_lost');
    // lost stays lost for the store, even once the lease is free again
    await b.append([closed('ses_l', 4)]);
    expect(await refusal(a.append([stateChanged('ses_l', 5)]))).toBe('lease_lost');
    const stored = await a.read('ses_l', { fromSequence: 1, limit: 10 });
    expect(stored.map((e) => e.sequence)).toEqual([1, 2, 3, 4]);
  });

  it('a claimed store renews its leases; closing a session frees its lease at once', async () => {
    const { store: a, other } = open(600);
    await a.claim();
    const b = other();
    await a.append([opened('ses_r', 1)]);
    // three lease periods: only renewals keep it
    await new Promise((r) => setTimeout(r, 1_800));
    expect(await b.takeOver?.('ses_r')).toBe(false);
    await a.append([closed('ses_r', 2)]);
    expect(await b.takeOver?.('ses_r')).toBe(true);
  });

  it("a runtime's subscription follows a session another runtime writes, live, to session.closed", async () => {
    const { store, other } = open(5_000);
    await expectReaderFollowsWriter(store, other());
  });

  it('commands: recorded once, accepted and settled once by the lease holder only, withdrawn only while pending', async (ctx) => {
    const { a, ta, tb } = commandTables(ctx, open(5_000));
    await a.append([opened('ses_c', 1)]);
    expect(await tb.ownerOf('ses_c')).toEqual({ owner: ta.owner, self: false });
    expect(await ta.ownerOf('ses_c')).toEqual({ owner: ta.owner, self: true });
    expect((await tb.owners()).get('ses_c')?.owner).toBe(ta.owner);

    let changes = 0;
    const stop = await ta.watch(() => {
      changes += 1;
    });
    onCleanup(stop);
    const command = (commandId: string) => ({
      commandId,
      sessionId: 'ses_c',
      body: { kind: 'interrupt' },
      issuedAt: new Date(0).toISOString(),
    });
    await tb.enqueue(command('cmd_1'));
    await until(() => changes > 0, "the owner's watch", 5_000);
    const error = await tb.enqueue(command('cmd_1')).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'command_duplicate' });
    expect(await ta.get('cmd_1')).toMatchObject({ state: 'pending', issuedBy: tb.owner });
    expect((await ta.unsettled('ses_c', 10)).map((c) => c.commandId)).toEqual(['cmd_1']);
    expect([...(await tb.pendingSessions(10))]).toEqual(['ses_c']);

    // only the lease holder accepts or settles; anyone withdraws a pending one
    expect(await refusal(tb.accept('cmd_1'))).toBe('session_leased');
    expect(await ta.accept('cmd_1')).toBe(true);
    expect(await ta.accept('cmd_1')).toBe(false);
    expect(await tb.settle('cmd_1', { outcome: 'withdrawn' })).toBe(false);
    expect(await ta.settle('cmd_1', { outcome: 'done' })).toBe(true);
    expect(await ta.settle('cmd_1', { outcome: 'done' })).toBe(false);
    expect(await tb.get('cmd_1')).toMatchObject({
      state: 'settled',
      acceptedBy: ta.owner,
      settlement: { outcome: 'done' },
    });

    await tb.enqueue(command('cmd_2'));
    expect(await tb.settle('cmd_2', { outcome: 'withdrawn' })).toBe(true);
    expect(await ta.accept('cmd_2')).toBe(false);
    expect(await ta.unsettled('ses_c', 10)).toEqual([]);
    expect((await ta.pendingSessions(10)).size).toBe(0);

    // a closed session has no owner
    await a.append([closed('ses_c', 2)]);
    expect(await tb.ownerOf('ses_c')).toBeUndefined();
  });

  it('commands: a store whose lease was taken over can no longer accept or settle', async (ctx) => {
    const { a, b, ta, tb } = commandTables(ctx, open());
    await a.append([opened('ses_f', 1)]);
    await ta.enqueue({ commandId: 'cmd_f', sessionId: 'ses_f', body: {}, issuedAt: 'x' });
    expect(await ta.accept('cmd_f')).toBe(true);
    await takenOverBy(b, 'ses_f');
    expect(await refusal(ta.settle('cmd_f', { outcome: 'done' }))).toBe('lease_lost');
    expect(await tb.ownerOf('ses_f')).toEqual({ owner: tb.owner, self: true });
    // the taker-over settles what the previous owner accepted, once
    expect(await tb.settle('cmd_f', { outcome: 'refused' })).toBe(true);
    expect(await tb.get('cmd_f')).toMatchObject({ state: 'settled', acceptedBy: ta.owner });
  });
});
