/**
 * The EventStore contract, one suite run on every store: memory, SQLite and PostgreSQL (a real
 * server: see pg-cluster.ts). Leases, fencing and the command table are store-lease-contract's;
 * what is particular to one store stays in its own file.
 */
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import { createAgentRuntime, type EventEnvelope } from '@relvo-labs/agent-runtime';
import { expect, it } from 'vitest';
import { opened, stateChanged } from './store-envelopes.js';
import { describeEachStore, refusal } from './store-kinds.js';
import {
  expectGapless,
  history,
  onCleanup,
  tempDir,
  TWO_SCRIPTED_PROFILES,
  types,
} from './support.js';

describeEachStore('$name event store contract', (open) => {
  it('an empty store knows no session', async () => {
    const { store } = open();
    await store.claim();
    expect(await store.getSession('ses_x')).toBeUndefined();
    expect(await store.read('ses_x', { fromSequence: 1, limit: 10 })).toEqual([]);
    expect(await store.listSessions()).toEqual([]);
  });

  it('reads back what it stored, by sequence and page, with the summary', async () => {
    const { store } = open();
    const events: EventEnvelope[] = [opened('ses_a', 1), stateChanged('ses_a', 2, 'run_1')];
    for (let s = 3; s <= 7; s += 1) events.push(stateChanged('ses_a', s));
    await store.append(events.slice(0, 2));
    await store.append(events.slice(2));
    expect(await store.read('ses_a', { fromSequence: 1, limit: 100 })).toEqual(events);
    expect(await store.read('ses_a', { fromSequence: 3, limit: 2 })).toEqual(events.slice(2, 4));
    expect(await store.read('ses_a', { fromSequence: 8, limit: 2 })).toEqual([]);
    const summary = await store.getSession('ses_a');
    expect(summary).toEqual({
      sessionId: 'ses_a',
      state: 'ready',
      defaultProfile: 'a',
      openedAt: events[0]?.occurredAt,
      updatedAt: events[6]?.occurredAt,
      lastSequence: 7,
    });
    expect(await store.listSessions()).toEqual([summary]);
  });

  it('refuses an append that would leave a gap, atomically', async () => {
    const { store } = open();
    const first = opened('ses_1', 1);
    expect(await refusal(store.append([first, stateChanged('ses_1', 3)]))).toBe('store_conflict');
    expect(await store.read('ses_1', { fromSequence: 1, limit: 10 })).toEqual([]);
    await store.append([first]);
    expect(await store.read('ses_1', { fromSequence: 1, limit: 10 })).toHaveLength(1);
    expect(await refusal(store.append([stateChanged('ses_1', 1)]))).toBe('store_conflict');
    expect(await refusal(store.append([opened('ses_1', 2)]))).toBe('store_conflict');
    expect((await store.getSession('ses_1'))?.lastSequence).toBe(1);
  });

  it('refuses a session that does not start with session.opened', async () => {
    const { store } = open();
    expect(await refusal(store.append([stateChanged('ses_2', 1)]))).toBe('store_conflict');
    expect(await store.getSession('ses_2')).toBeUndefined();
  });

  it('stores a batch over several sessions whole or not at all', async () => {
    const { store } = open();
    const bad = [opened('ses_a', 1), opened('ses_b', 1), stateChanged('ses_a', 3)];
    expect(await refusal(store.append(bad))).toBe('store_conflict');
    expect(await store.listSessions()).toEqual([]);
    await store.append([opened('ses_a', 1), opened('ses_b', 1), stateChanged('ses_a', 2)]);
    expect((await store.listSessions()).map((s) => [s.sessionId, s.lastSequence])).toEqual([
      ['ses_a', 2],
      ['ses_b', 1],
    ]);
  });

  it('one claim at a time; closed is closed, and closing again is harmless', async () => {
    const { store } = open();
    await store.claim();
    expect(await refusal(store.claim())).toBe('store_locked');
    await store.close();
    await store.close();
    expect(await refusal(store.append([opened('ses_c', 1)]))).toBe('store_closed');
    expect(await refusal(store.read('ses_c', { fromSequence: 1, limit: 1 }))).toBe('store_closed');
  });

  it('behind a runtime: a subscriber sees each envelope only once it is stored, gaplessly, to session.closed', async () => {
    const { store, reopen } = open();
    const scripted = createScriptedProvider();
    const runtime = await createAgentRuntime({
      providers: { scripted: () => scripted.provider },
      config: TWO_SCRIPTED_PROFILES,
      store,
    });
    onCleanup(() => runtime.shutdown());
    const session = await runtime.openSession({ workspace: tempDir() });
    const seen: EventEnvelope[] = [];
    const following = (async () => {
      for await (const e of session.subscribe()) {
        // durable before visible: what a subscriber is handed is already in the store
        expect(await store.read(session.id, { fromSequence: e.sequence, limit: 1 })).toEqual([e]);
        seen.push(e);
      }
    })();
    const turn = await session.submitTurn({ input: 'hello' });
    scripted.controller.drain();
    expect((await turn.done).turnState).toBe('completed');
    await session.close();
    await following;
    expectGapless(seen);
    expect(types(seen).at(-1)).toBe('session.closed');
    const stored = await history(runtime, session.id);
    expect(stored).toEqual(seen);
    await runtime.shutdown();
    if (reopen === undefined) return;

    // a durable store gives the same history to the next runtime
    const again = await createAgentRuntime({
      providers: { scripted: () => scripted.provider },
      config: TWO_SCRIPTED_PROFILES,
      store: reopen(),
    });
    onCleanup(() => again.shutdown());
    expect(again.recoveredSessionIds).toEqual([]);
    expect(await history(again, session.id)).toEqual(stored);
    expect((await again.listSessions()).map((s) => s.state)).toEqual(['closed']);
  });
});
