/**
 * The log's record key (ADR-0050): the key file beside a SQLite log is created for its owner
 * alone and refused when others may read it or it holds no key; a log without a key resumes
 * nothing (`record_key_missing`).
 */
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createAgentRuntime,
  createMemoryEventStore,
  isRuntimeError,
  openSqliteEventStore,
} from '@relvo-labs/agent-runtime';
import { createDurableProvider } from './durable-provider.js';
import { withAppend } from './store-wrap.js';
import { tempDir } from './support.js';

async function reasonOf(work: () => unknown): Promise<string | undefined> {
  try {
    await work();
  } catch (error) {
    return isRuntimeError(error) ? error.reason : 'untyped';
  }
  return undefined;
}

describe('the record key', () => {
  it('beside a SQLite log: created 0600 once, the same on the next open; too open or empty is refused', async () => {
    const path = join(tempDir(), 'events.db');
    const first = openSqliteEventStore({ path });
    const key = first.recordKey?.();
    expect(key?.length).toBe(32);
    expect(statSync(`${path}.key`).mode & 0o777).toBe(0o600);
    await first.close();
    const again = openSqliteEventStore({ path });
    expect(again.recordKey?.()?.equals(key ?? Buffer.alloc(0))).toBe(true);
    await again.close();

    chmodSync(`${path}.key`, 0o644);
    const open = openSqliteEventStore({ path });
    expect(await reasonOf(() => open.recordKey?.())).toBe('record_key_insecure');
    await open.close();

    writeFileSync(`${path}.key`, 'short\n', { mode: 0o600 });
    chmodSync(`${path}.key`, 0o600);
    const empty = openSqliteEventStore({ path });
    expect(await reasonOf(() => empty.recordKey?.())).toBe('record_key_invalid');
    await empty.close();
  });

  it('a log without a key resumes nothing: record_key_missing', async () => {
    const memory = createMemoryEventStore();
    // a store shared by a fleet whose host configured no key
    const keyless = withAppend(memory, 'memory', (batch) => memory.append(batch));
    expect('recordKey' in keyless).toBe(false);
    const durable = createDurableProvider();
    const runtime = await createAgentRuntime({
      providers: { manual: () => durable.provider },
      config: { defaultProfile: 'm', profiles: { m: { provider: 'manual' } } },
      store: keyless,
    });
    const session = await runtime.openSession({ workspace: tempDir() });
    const turn = await session.submitTurn({ input: 'hi' });
    durable.manual.sessions[0]?.runs[0]?.complete({ outcome: 'succeeded' });
    await turn.done;
    expect(await reasonOf(() => runtime.forkSession(session.id))).toBe('record_key_missing');
    await runtime.shutdown();
  });
});
