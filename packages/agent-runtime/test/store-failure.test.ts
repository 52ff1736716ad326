import { rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  createMemoryEventStore,
  isRuntimeError,
  openSqliteEventStore,
  type EventEnvelope,
  type EventStore,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { createManualProvider } from './manual-provider.js';
import { withAppend } from './store-wrap.js';
import { runtimeOnManual, tempDir, turnWithRun, until } from './support.js';

/** A store (memory by default) whose appends fail (like a full disk) once `broken` is set. */
function breakableStore(inner: EventStore = createMemoryEventStore()): {
  store: EventStore;
  readonly fail: () => void;
} {
  let broken = false;
  const store = withAppend(inner, 'breakable', (batch) =>
    broken ? Promise.reject(new Error('ENOSPC: no space left on device')) : inner.append(batch),
  );
  return {
    store,
    fail: () => {
      broken = true;
    },
  };
}

async function setup(inner?: EventStore) {
  const manual = createManualProvider();
  const { store, fail: breakStore } = breakableStore(inner);
  const runtime = await runtimeOnManual(manual.provider, { store });
  const session = await runtime.openSession({ workspace: tempDir() });
  const { turn, run } = await turnWithRun(manual, session);
  return { manual, runtime, session, turn, run, breakStore };
}

/** Reads until the subscription settles: its envelopes and how it ended. */
async function drain(events: AsyncIterable<EventEnvelope>): Promise<unknown> {
  try {
    const it = events[Symbol.asyncIterator]();
    for (let r = await it.next(); r.done !== true; r = await it.next()) continue;
    return 'ended';
  } catch (error) {
    return error;
  }
}

describe('a failed append', () => {
  it('wakes every waiting subscriber with a typed error; done does not report completed', async () => {
    const { manual, runtime, session, turn, run, breakStore } = await setup();
    const readers = [drain(session.subscribe()), drain(runtime.subscribe(session.id))];
    run.sink.emit({ payload: { type: 'run.message_delta', text: 'stored' } });
    await until(() => session.state === 'ready', 'a settled tick');
    breakStore();
    run.sink.emit({ payload: { type: 'run.message_delta', text: 'lost' } });
    run.complete({ outcome: 'succeeded' });
    for (const ended of await Promise.all(readers)) {
      expect(isRuntimeError(ended) && ended.reason).toBe('store_io');
    }
    const result = await turn.done;
    expect(result.turnState).toBe('failed');
    expect(result.termination).toMatchObject({
      outcome: 'failed',
      error: { code: 'store_unavailable' },
    });
    const refused = await session.submitTurn({ input: 'again' }).catch((e: unknown) => e);
    expect(isRuntimeError(refused) && refused.reason).toBe('store_io');
    expect(manual.sessions[0]!.runs).toHaveLength(1);
    const stored = await runtime.readEvents(session.id);
    expect(stored.at(-1)?.sequence).toBe(result.lastSequence);
    expect(stored.some((e) => e.payload.type === 'turn.settled')).toBe(false);
  });

  it('close() and shutdown() settle with the typed store error instead of waiting', async () => {
    const { runtime, session, breakStore } = await setup();
    const other = await runtime.openSession({ workspace: tempDir() });
    const readers = [drain(session.subscribe()), drain(other.subscribe())];
    breakStore();
    const closed = await session.close().then(
      () => 'closed',
      (error: unknown) => error,
    );
    expect(isRuntimeError(closed) && closed.reason).toBe('store_io');
    const shut = await runtime.shutdown().then(
      () => 'shut down',
      (error: unknown) => error,
    );
    expect(isRuntimeError(shut) && shut.reason).toBe('store_io');
    for (const ended of await Promise.all(readers)) {
      expect(isRuntimeError(ended) && ended.reason).toBe('store_io');
    }
    // the store is closed and the sessions are over: a retry has nothing left to do
    await expect(runtime.shutdown()).resolves.toBeUndefined();
  });

  for (const kind of ['injected', 'sqlite'] as const) {
    it(`disposes the session's provider sessions at once; the run in flight settles failed (${kind})`, async () => {
      // SQLite fails for real: its folder is removed under it (store_moved)
      const folder = join(tempDir(), 'log');
      const { manual, session, turn, run, breakStore } = await setup(
        kind === 'sqlite' ? openSqliteEventStore({ path: join(folder, 'events.db') }) : undefined,
      );
      const provider = manual.sessions[0]!;
      expect(provider.disposeCalls).toBe(0);
      if (kind === 'sqlite') rmSync(folder, { recursive: true, force: true });
      else breakStore();
      // nothing the provider does from here could be recorded: it is not left working
      run.sink.emit({ payload: { type: 'run.message_delta', text: 'lost' } });
      await until(() => provider.disposeCalls === 1, 'the dispose');
      const result = await turn.done;
      expect(result.turnState).toBe('failed');
      expect(session.activeRunId).toBeUndefined();
      // close has nothing left to dispose: the store's failure is what it reports
      const closed = await session.close().catch((e: unknown) => e);
      const reason = kind === 'sqlite' ? 'store_moved' : 'store_io';
      expect(isRuntimeError(closed) && closed.reason).toBe(reason);
      expect(provider.disposeCalls).toBe(1);
    });
  }
});
