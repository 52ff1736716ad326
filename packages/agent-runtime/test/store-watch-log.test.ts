/**
 * `EventStore.watchLog` on every store: a watcher is woken after an append to any session — its
 * own store's and, where the store is shared, another runtime's, a session opened there
 * included — and no longer once it stopped watching. What the console's list follows.
 */
import type { EventStore } from '@relvo-labs/agent-runtime';
import { expect, it } from 'vitest';
import { opened, stateChanged } from './store-envelopes.js';
import { describeEachStore } from './store-kinds.js';
import { until } from './support.js';

/** Counts wake-ups; `stop` ends the watch. */
async function watcher(store: EventStore): Promise<{ count: () => number; stop: () => void }> {
  let n = 0;
  const watch = store.watchLog?.bind(store);
  if (watch === undefined) throw new Error(`${store.kind} has no watchLog`);
  const stop = await watch(() => {
    n += 1;
  });
  return { count: () => n, stop };
}

describeEachStore('$name store: watchLog', (open, kind) => {
  it('wakes after each append to any session, and not after it stopped', async () => {
    const { store } = open();
    await store.claim();
    const w = await watcher(store);
    await store.append([opened('ses_a', 1)]);
    await until(() => w.count() >= 1, 'woken by a new session');
    const after = w.count();
    await store.append([stateChanged('ses_a', 2)]);
    await until(() => w.count() > after, 'woken by an append');
    w.stop();
    const stopped = w.count();
    await store.append([opened('ses_b', 1)]);
    // a stopped watcher: nothing comes, however long one waits for the store's next poll
    await new Promise((r) => setTimeout(r, 100));
    expect(w.count()).toBe(stopped);
  });

  // memory: one runtime owns the whole store, there is no other to share it (so no such test)
  if (kind.name === 'memory') return;
  it("wakes after another runtime's store appends, a session it opened included", async () => {
    const o = open();
    await o.store.claim();
    const other = o.other();
    await other.claim();
    const w = await watcher(o.store);
    const before = w.count();
    await other.append([opened('ses_elsewhere', 1)]);
    await until(() => w.count() > before, "woken by the other store's new session", 5_000);
    expect(await o.store.listSessions()).toHaveLength(1);
  });
});
