import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  isRuntimeError,
  openSqliteEventStore,
  type RuntimeError,
} from '@relvo-labs/agent-runtime';
import { LATEST_SCHEMA_VERSION, SQLITE_APPLICATION_ID } from '../src/store/migrations.js';
import { describe, expect, it } from 'vitest';
import {
  expectGapless,
  history,
  onCleanup,
  sqliteRuntime,
  tempDir,
  TWO_SCRIPTED_PROFILES,
  types,
} from './support.js';

function refusedOpen(path: string): RuntimeError {
  try {
    const store = openSqliteEventStore({ path, busyTimeoutMs: 50 });
    void store.close();
  } catch (error) {
    if (isRuntimeError(error)) return error;
    throw error;
  }
  throw new Error('the store opened');
}

describe('SQLite event store', () => {
  it('a runtime opened on an existing database sees the earlier sessions and their history', async () => {
    const path = join(tempDir(), 'events.db');
    const first = await sqliteRuntime(path);
    const session = await first.runtime.openSession({ workspace: tempDir() });
    const turn = await session.submitTurn({ input: 'remember me' });
    first.scripted.controller.drain();
    await turn.done;
    await session.close();
    const before = await history(first.runtime, session.id);
    await first.runtime.shutdown();

    const second = await sqliteRuntime(path);
    expect(second.runtime.recoveredSessionIds).toEqual([]);
    const sessions = await second.runtime.listSessions();
    expect(sessions).toEqual([
      expect.objectContaining({
        sessionId: session.id,
        state: 'closed',
        defaultProfile: 'alpha',
        lastSequence: before.length,
      }),
    ]);
    const after = await history(second.runtime, session.id);
    expect(after).toEqual(before);
    expectGapless(after);
    // a replay of a closed session ends after session.closed
    const replayed = [];
    for await (const e of second.runtime.subscribe(session.id)) replayed.push(e);
    expect(replayed.map((e) => e.eventId)).toEqual(before.map((e) => e.eventId));
  });

  it('a session left open by an earlier runtime is recorded as failed on reopen, never resumed', async () => {
    const path = join(tempDir(), 'events.db');
    const scripted = createScriptedProvider({
      scripts: { ask: [{ type: 'ask', ref: 'q', request: { kind: 'question', prompt: 'p' } }] },
    });
    const store = openSqliteEventStore({ path });
    const first = await createAgentRuntime({
      providers: { scripted: () => scripted.provider },
      config: TWO_SCRIPTED_PROFILES,
      store,
    });
    const session = await first.openSession({ workspace: tempDir() });
    const turn = await session.submitTurn({ input: 'ask' });
    scripted.controller.drain();
    expect(session.pendingInteractions()).toHaveLength(1);
    for (
      let i = 0;
      !types(await history(first, session.id)).includes('interaction.requested');
      i += 1
    ) {
      if (i > 200) throw new Error('interaction.requested never became durable');
      await new Promise((r) => setTimeout(r, 5));
    }
    // the process "dies": the store is released without the runtime closing anything
    await store.close();

    const second = await sqliteRuntime(path);
    expect(second.runtime.recoveredSessionIds).toEqual([session.id]);
    const events = await history(second.runtime, session.id);
    expectGapless(events);
    expect(types(events).slice(-6)).toEqual([
      'run.state_changed',
      'interaction.settled',
      'run.finished',
      'turn.settled',
      'session.state_changed',
      'session.closed',
    ]);
    const finished = events.find((e) => e.payload.type === 'run.finished');
    expect(finished?.runId).toBe(turn.runId);
    expect(finished?.payload).toMatchObject({
      termination: {
        outcome: 'failed',
        error: { code: 'internal', details: { reason: 'runtime_process_ended' } },
      },
    });
    expect(events.at(-1)?.payload).toMatchObject({ type: 'session.closed', reason: 'failed' });
    expect((await second.runtime.listSessions())[0]?.state).toBe('failed');
    expect(second.runtime.session(session.id)).toBeUndefined();
  });

  it('refuses a database locked by another store with a typed error', async () => {
    const path = join(tempDir(), 'events.db');
    const holder = openSqliteEventStore({ path });
    onCleanup(() => holder.close());
    const error = refusedOpen(path);
    expect([error.code, error.reason]).toEqual(['store_unavailable', 'store_locked']);
    await holder.close();
    const again = openSqliteEventStore({ path });
    await again.close();
  });

  it('refuses a corrupt file and never overwrites it', () => {
    const path = join(tempDir(), 'events.db');
    const garbage = Buffer.alloc(8192, 0x5a);
    writeFileSync(path, garbage);
    const error = refusedOpen(path);
    expect(error.reason).toBe('store_corrupt');
    expect(readFileSync(path).equals(garbage)).toBe(true);
  });

  it('refuses a database from a newer schema version and leaves it untouched', () => {
    const path = join(tempDir(), 'events.db');
    const db = new Database(path);
    db.pragma(`application_id = ${SQLITE_APPLICATION_ID}`);
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    db.exec('CREATE TABLE future (x)');
    db.close();
    const bytes = readFileSync(path);
    const error = refusedOpen(path);
    expect(error.reason).toBe('store_newer_schema');
    expect(error.error.details).toMatchObject({
      schemaVersion: LATEST_SCHEMA_VERSION + 1,
      supportedVersion: LATEST_SCHEMA_VERSION,
    });
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it("refuses another application's SQLite database", () => {
    const path = join(tempDir(), 'other.db');
    const db = new Database(path);
    db.exec('CREATE TABLE customers (id INTEGER)');
    db.close();
    const bytes = readFileSync(path);
    expect(refusedOpen(path).reason).toBe('store_foreign');
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('migrates an older schema version forward, keeping the history', async () => {
    const path = join(tempDir(), 'events.db');
    const old = openSqliteEventStore({ path, migrateTo: 1 });
    const scripted = createScriptedProvider();
    const runtime = await createAgentRuntime({
      providers: { scripted: () => scripted.provider },
      config: TWO_SCRIPTED_PROFILES,
      store: old,
    });
    const session = await runtime.openSession({ workspace: tempDir() });
    await session.close();
    const before = await history(runtime, session.id);
    await runtime.shutdown();
    const probe = new Database(path, { readonly: true });
    expect(probe.pragma('user_version', { simple: true })).toBe(1);
    probe.close();

    const migrated = await sqliteRuntime(path);
    expect(await history(migrated.runtime, session.id)).toEqual(before);
    await migrated.runtime.shutdown();
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    expect(
      check
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'events_by_run'")
        .get(),
    ).toBeDefined();
    check.close();
  });

  it('refuses an append that would leave a gap, atomically', async () => {
    const store = openSqliteEventStore({ path: join(tempDir(), 'events.db') });
    onCleanup(() => store.close());
    const envelope = {
      eventId: 'evt_1',
      sessionId: 'ses_1',
      sequence: 1,
      occurredAt: new Date(0).toISOString(),
      wireVersion: '0.6',
      payload: {
        type: 'session.opened',
        defaultProfile: 'a',
        workspace: { root: '/', ownership: 'borrowed' },
      },
    } as const;
    const gap = {
      ...envelope,
      eventId: 'evt_3',
      sequence: 3,
      payload: { type: 'session.state_changed', from: 'opening', to: 'ready' },
    } as const;
    const error = await store.append([envelope, gap]).catch((e: unknown) => e);
    expect(isRuntimeError(error) && error.reason).toBe('store_conflict');
    expect(await store.read('ses_1', { fromSequence: 1, limit: 10 })).toEqual([]);
    await store.append([envelope]);
    expect(await store.read('ses_1', { fromSequence: 1, limit: 10 })).toHaveLength(1);
  });
});
