/** What `relvo-codex sessions` says about each session, from a log the runtime wrote. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import { createAgentRuntime, createMemoryEventStore } from '@relvo-labs/agent-runtime';
import { listingOf, readSession } from '../src/host/log-reader.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('session listings', () => {
  it('count turns and profiles; a session never closed reads as ended with its process', async () => {
    const scripted = createScriptedProvider();
    const store = createMemoryEventStore();
    const runtime = await createAgentRuntime({
      providers: { scripted: () => scripted.provider },
      config: {
        defaultProfile: 'a',
        profiles: { a: { provider: 'scripted' }, b: { provider: 'scripted' } },
      },
      store,
    });
    cleanups.push(() => runtime.shutdown().catch(() => undefined));
    const workspace = mkdtempSync(join(tmpdir(), 'relvo-cli-history-'));
    cleanups.push(() => {
      rmSync(workspace, { recursive: true, force: true });
    });
    const pump = setInterval(() => {
      scripted.controller.drain();
    }, 2);
    cleanups.push(() => {
      clearInterval(pump);
    });

    const open = await runtime.openSession({ workspace });
    await (
      await open.submitTurn({ input: 'one' })
    ).done;
    await (
      await open.submitTurn({ input: 'two', profile: 'b' })
    ).done;
    const closed = await runtime.openSession({ workspace });
    await closed.close();

    const listing = async (id: string) => {
      const summary = await store.getSession(id);
      if (summary === undefined) throw new Error('no such session');
      return listingOf(summary, await readSession(store, id));
    };
    expect(await listing(open.id)).toMatchObject({
      turns: 2,
      profiles: ['a', 'b'],
      state: 'ready, process ended',
    });
    expect(await listing(closed.id)).toMatchObject({ turns: 0, profiles: ['a'], state: 'closed' });
  });
});
