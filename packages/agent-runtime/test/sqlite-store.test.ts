/**
 * The SQLite event store: a reopened file has the earlier sessions and their history, a session
 * left open is recorded failed, reads of any range across packed rows, message deltas packed as
 * their text, and files of schema 1 and 2 migrated forward with their history. What it refuses
 * to open is sqlite-refusals.test.ts.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  createMemoryEventStore,
  openSqliteEventStore,
  type EventEnvelope,
  type StoredSession,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION } from '../src/store/migrations.js';
import { migrate } from '../src/store/sqlite-open.js';
import { ENVELOPES_PER_ROW } from '../src/store/sqlite-rows.js';
import { messageDelta, opened, stateChanged } from './store-envelopes.js';
import {
  expectGapless,
  history,
  onCleanup,
  scriptedRuntime,
  sqliteRuntime,
  tempDir,
  TWO_SCRIPTED_PROFILES,
  types,
} from './support.js';

/** A database at schema version `version` (1 or 2) holding `events` as those versions did. */
function writeOldSchema(
  path: string,
  version: number,
  events: readonly EventEnvelope[],
  summary: StoredSession,
  storedWire?: string,
): void {
  const db = new Database(path);
  migrate(db, 0, version);
  const insert = db.prepare(
    `INSERT INTO events (session_id, sequence, event_id, run_id, occurred_at, wire_version, type, payload)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const e of events) {
    const row = [e.sessionId, e.sequence, e.eventId, e.runId ?? null, e.occurredAt];
    insert.run(...row, storedWire ?? e.wireVersion, e.payload.type, JSON.stringify(e.payload));
  }
  db.prepare(
    `INSERT INTO sessions (session_id, state, default_profile, opened_at, updated_at, last_sequence)
     VALUES (@sessionId, @state, @defaultProfile, @openedAt, @updatedAt, @lastSequence)`,
  ).run(summary);
  expect(db.pragma('user_version', { simple: true })).toBe(version);
  db.close();
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

  it('reads any range across rows of many envelopes, interleaved sessions included', async () => {
    const path = join(tempDir(), 'events.db');
    const store = openSqliteEventStore({ path });
    onCleanup(() => store.close());
    const a: EventEnvelope[] = [opened('ses_a', 1)];
    const b: EventEnvelope[] = [opened('ses_b', 1)];
    // one batch longer than two rows, then batches alternating between two sessions
    // runs of one time and one run id, as a turn's deltas have, across row boundaries
    for (let s = 2; s <= 2 * ENVELOPES_PER_ROW + 40; s += 1) {
      const e = stateChanged('ses_a', s, s % 100 < 70 ? 'run_1' : undefined);
      const previous = a[a.length - 1] as EventEnvelope;
      a.push(s % 50 < 30 ? { ...e, occurredAt: previous.occurredAt } : e);
    }
    await store.append(a);
    for (let s = 2; s <= 9; s += 1) b.push(stateChanged('ses_b', s));
    const tail = [] as EventEnvelope[];
    for (let s = a.length + 1; s <= a.length + 8; s += 1) tail.push(stateChanged('ses_a', s));
    await store.append(b.flatMap((e, i) => (tail[i] === undefined ? [e] : [e, tail[i]])));
    const all = [...a, ...tail];
    const froms = [1, 2, 40, ENVELOPES_PER_ROW, ENVELOPES_PER_ROW + 1, 300, all.length];
    for (const from of [...froms, all.length + 1]) {
      for (const limit of [1, 7, ENVELOPES_PER_ROW + 3, 10_000]) {
        const expected = all.slice(from - 1, from - 1 + limit);
        expect(await store.read('ses_a', { fromSequence: from, limit })).toEqual(expected);
      }
    }
    expect(await store.read('ses_b', { fromSequence: 1, limit: 100 })).toEqual(b);
    expect(await store.read('ses_b', { fromSequence: 5, limit: 0 })).toEqual([]);
    await store.close();
    const db = new Database(path, { readonly: true, fileMustExist: true });
    // written as rows of runs: 3 for the long batch, then one per session-run of the second
    expect(db.prepare('SELECT count(*) FROM event_rows').pluck().get()).toBeLessThan(30);
    db.close();
  });

  it('writes a message delta as its text alone and reads it back as the payload it was', async () => {
    const path = join(tempDir(), 'events.db');
    const store = openSqliteEventStore({ path });
    onCleanup(() => store.close());
    // texts a JSON row must keep exactly: quotes, a backslash, a lone surrogate's neighbours, JSON
    const texts = ['hello', 'say "hi"\\n', '{"type":"run.message_delta"}', '\u{1F600} x'];
    const batch: EventEnvelope[] = [opened('ses_d', 1)];
    texts.forEach((text, i) => batch.push(messageDelta('ses_d', i + 2, text, 'run_1')));
    batch.push(stateChanged('ses_d', texts.length + 2, 'run_1'));
    await store.append(batch);
    expect(await store.read('ses_d', { fromSequence: 1, limit: 100 })).toEqual(batch);
    // from the middle of the row too
    expect(await store.read('ses_d', { fromSequence: 3, limit: 2 })).toEqual(batch.slice(2, 4));
    await store.close();
    const db = new Database(path, { readonly: true, fileMustExist: true });
    const row = db.prepare('SELECT envelopes FROM event_rows').pluck().get() as string;
    db.close();
    const packed = JSON.parse(row) as unknown[][];
    // the deltas are bare strings; the other payloads stay objects
    expect(packed.slice(1, 1 + texts.length).map((p) => p[3])).toEqual(texts);
    expect(typeof packed[0]?.[3]).toBe('object');
    expect(typeof packed[texts.length + 1]?.[3]).toBe('object');
  });

  it.each([1, 2])('migrates schema version %i forward, keeping the history', async (from) => {
    // a history as earlier runtimes stored it: one row per event in `events`
    const memory = createMemoryEventStore();
    const { runtime, scripted, session } = await scriptedRuntime({ store: memory });
    const turn = await session.submitTurn({ input: 'remember me' });
    scripted.controller.drain();
    await turn.done;
    await session.close();
    const before = await history(runtime, session.id);
    const summary = await memory.getSession(session.id);
    await runtime.shutdown();
    expect(before.some((e) => e.runId !== undefined)).toBe(true);
    expect(before.some((e) => e.runId === undefined)).toBe(true);
    // deltas as the old schemas stored them (whole payload objects) read back the same
    expect(before.some((e) => e.payload.type === 'run.message_delta')).toBe(true);
    const path = join(tempDir(), 'events.db');
    // rows written by a runtime of the wire before: read as this wire, payloads judged by its schema
    writeOldSchema(path, from, before, summary as StoredSession, '0.7');

    const migrated = await sqliteRuntime(path);
    expect(await history(migrated.runtime, session.id)).toEqual(before);
    expect(await migrated.runtime.listSessions()).toEqual([summary]);
    await migrated.runtime.shutdown();
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    // one row per batch; the old per-event table and its unused run index are gone
    const tables = check
      .prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name")
      .pluck()
      .all();
    expect(tables).not.toContain('events');
    expect(tables).not.toContain('events_by_run');
    expect(tables).toContain('event_rows');
    check.close();
  });
});
