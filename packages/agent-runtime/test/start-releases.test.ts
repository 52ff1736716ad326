/**
 * A runtime that finds, at its start, a session whose process died settles it (resumable) and
 * gives its lease back: another runtime on the same log resumes it while the first one runs,
 * instead of being refused `session_leased` until the first one ends.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { createAgentRuntime, openSqliteEventStore } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { createDurableProvider } from './durable-provider.js';
import { RuntimeChild } from './runtime-child.js';
import { onCleanup, tempDir } from './support.js';

const CHILD = fileURLToPath(new URL('./fixtures/command-child.ts', import.meta.url));
const CONFIG = { defaultProfile: 'm', profiles: { m: { provider: 'manual' } } };

async function runtimeOn(path: string) {
  const durable = createDurableProvider('chaos-home');
  const runtime = await createAgentRuntime({
    providers: { manual: () => durable.provider },
    config: CONFIG,
    store: openSqliteEventStore({ path, leaseMs: 800 }),
  });
  onCleanup(() => runtime.shutdown().catch(() => undefined));
  return runtime;
}

describe('a runtime starting on a log with a dead process’s session', () => {
  it('settles it, gives its lease back, and another runtime resumes it while the first runs', async () => {
    const path = join(tempDir(), 'log.db');
    const owner = new RuntimeChild(CHILD, ['sqlite', path, '800']);
    await owner.line((l) => l === 'READY', 'the owner');
    owner.send(`open ${tempDir()}`);
    const sessionId = (await owner.line((l) => l.startsWith('PENDING '), 'the approval')).split(
      ' ',
    )[1];
    owner.signal('SIGKILL');
    await owner.exited;

    const first = await runtimeOn(path);
    expect(first.resumableSessionIds).toEqual([sessionId]);
    expect((await first.sessionOwners()).has(sessionId ?? '')).toBe(false);
    const second = await runtimeOn(path);
    const resumed = await second.resumeSession(sessionId ?? '');
    expect(resumed.state).toBe('ready');
    expect((await first.sessionOwners()).get(sessionId ?? '')).toBe('elsewhere');
    // the dead owner's approval was settled once, by the first runtime's start
    const types = (await second.readEvents(sessionId ?? '')).map((e) => e.payload.type);
    expect(types.filter((t) => t === 'interaction.settled')).toHaveLength(1);
  });
});
