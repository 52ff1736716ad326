/**
 * The SQLite log's integrity: a database whose pages are corrupt under an intact header is
 * refused before anything is written, and a database whose folder is removed under a live
 * runtime stops acknowledging appends as durable.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  isRuntimeError,
  openSqliteEventStore,
  type EventEnvelope,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import {
  history,
  onCleanup,
  sqliteRuntime,
  tempDir,
  thrownRuntimeError,
  TWO_SCRIPTED_PROFILES,
} from './support.js';

const PAGE = 4096;

/** A closed store holding one closed session, checkpointed into the main file. */
async function storeWithHistory(path: string): Promise<void> {
  const { runtime } = await sqliteRuntime(path);
  await (await runtime.openSession({ workspace: tempDir() })).close();
  await runtime.shutdown();
}

describe('a database with corrupt pages', () => {
  it('is refused before anything is written, though its header is intact', async () => {
    const path = join(tempDir(), 'events.db');
    await storeWithHistory(path);
    expect(existsSync(`${path}-wal`)).toBe(false);
    const bytes = readFileSync(path);
    const pages = bytes.length / PAGE;
    expect(pages).toBeGreaterThan(2);
    // page 1 (the header and the schema) stays; every other page loses its b-tree header
    for (let page = 1; page < pages; page += 1) bytes.fill(0x5a, page * PAGE, page * PAGE + 16);
    writeFileSync(path, bytes);

    const error = thrownRuntimeError(() => openSqliteEventStore({ path }));
    expect([error.reason, error.code, error.error.retryable]).toEqual([
      'store_corrupt',
      'store_unavailable',
      false,
    ]);
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });
});

describe('a database whose folder is removed while it is open', () => {
  it('refuses the next appends instead of acknowledging them', async () => {
    const folder = join(tempDir(), 'log');
    const path = join(folder, 'events.db');
    const store = openSqliteEventStore({ path });
    onCleanup(() => store.close());
    await store.claim();
    const envelope = (sequence: number): EventEnvelope => ({
      eventId: `evt_${sequence}`,
      sessionId: 'ses_1',
      sequence,
      occurredAt: '2026-12-02T00:00:00.000Z',
      wireVersion: '0.8',
      payload:
        sequence === 1
          ? {
              type: 'session.opened',
              defaultProfile: 'p',
              workspace: { root: '/w', ownership: 'borrowed' },
            }
          : { type: 'session.state_changed', from: 'opening', to: 'ready' },
    });
    await store.append([envelope(1)]);
    rmSync(folder, { recursive: true, force: true });
    for (const sequence of [2, 2]) {
      const error: unknown = await store.append([envelope(sequence)]).catch((e: unknown) => e);
      expect(isRuntimeError(error) && [error.reason, error.error.retryable]).toEqual([
        'store_moved',
        false,
      ]);
    }
  });

  it('through the runtime: the command waiting for durability rejects, typed', async () => {
    const folder = join(tempDir(), 'log');
    const runtime = await createAgentRuntime({
      providers: { scripted: () => createScriptedProvider().provider },
      config: TWO_SCRIPTED_PROFILES,
      store: openSqliteEventStore({ path: join(folder, 'events.db') }),
    });
    // shutdown cannot record the sessions closed any more: the store is closed directly
    onCleanup(() => runtime.store.close());
    const session = await runtime.openSession({ workspace: tempDir() });
    expect((await history(runtime, session.id)).length).toBe(2);
    rmSync(folder, { recursive: true, force: true });
    const error: unknown = await runtime
      .openSession({ workspace: tempDir() })
      .catch((e: unknown) => e);
    expect(isRuntimeError(error) && error.reason).toBe('store_moved');
  });
});
