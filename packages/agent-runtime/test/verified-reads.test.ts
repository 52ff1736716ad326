/**
 * Reads are verified on both durable stores: a missing row, a row that is not JSON and a payload
 * of the wrong shape are `log_corrupt` from `readEvents`, and end a subscription within a bound
 * while the event loop keeps turning and another session of the same runtime keeps working.
 */
import { join } from 'node:path';
import {
  isRuntimeError,
  openPostgresEventStore,
  openSqliteEventStore,
  type AgentRuntime,
  type EventEnvelope,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import {
  DAMAGES,
  damagedRuntime,
  damagePg,
  damageSqlite,
  sqliteBacking,
  type Backing,
  type Damage,
} from './log-damage.js';
import { usePgCluster } from './pg-suite.js';
import { opened, stateChanged } from './store-envelopes.js';
import { expectGapless, history, onCleanup, sqliteRuntime, tempDir, types } from './support.js';

const server = usePgCluster();

function pgBacking(): Backing {
  const url = server.cluster().connectionString;
  const schema = server.schema('vr');
  return {
    open: () => openPostgresEventStore({ connectionString: url, schema }),
    damage: (sessionId, last, damage, place) =>
      damagePg(url, schema, sessionId, place === 'end' ? last : Math.floor(last / 2), damage),
  };
}

function expectLogCorrupt(error: unknown, sequence: number, damage: Damage, id: string): void {
  if (!isRuntimeError(error)) throw new Error(`not a RuntimeError: ${String(error)}`);
  expect([error.reason, error.code, error.error.retryable]).toEqual([
    'log_corrupt',
    'store_unavailable',
    false,
  ]);
  expect({ ...error.error.details }).toEqual({ reason: 'log_corrupt', sequence, damage });
  expect(JSON.stringify(error.error)).not.toContain(id);
}

/** Follows the session to its end; counts the interval's ticks until then. */
async function follow(
  runtime: AgentRuntime,
  sessionId: string,
): Promise<{ seen: number[]; ended: unknown; ms: number; ticks: number }> {
  let ticks = 0;
  const ticker = setInterval(() => {
    ticks += 1;
  }, 1);
  onCleanup(() => {
    clearInterval(ticker);
  });
  const t0 = performance.now();
  const seen: number[] = [];
  let ended: unknown;
  try {
    for await (const e of runtime.subscribe(sessionId)) seen.push(e.sequence);
  } catch (error) {
    ended = error;
  }
  clearInterval(ticker);
  return { seen, ended, ms: performance.now() - t0, ticks };
}

const KINDS: readonly [string, () => Backing, string | undefined][] = [
  ['SQLite', sqliteBacking, undefined],
  ['PostgreSQL', pgBacking, server.skip],
];

for (const [name, backing, skip] of KINDS) {
  describe.skipIf(skip !== undefined)(`a damaged log on ${name}`, () => {
    it.each(DAMAGES)(
      '%s: readEvents and subscribe end with log_corrupt, the loop turns, another session works',
      async (damage) => {
        const { runtime, scripted, sessionId, sequence } = await damagedRuntime(backing(), damage);
        const read = await runtime.readEvents(sessionId, { fromSequence: 1, limit: 10_000 }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expectLogCorrupt(read, sequence, damage, sessionId);
        // what lies before the damage still reads
        const before = await runtime.readEvents(sessionId, { limit: sequence - 1 });
        expect(before.map((e) => e.sequence)).toEqual(range(sequence - 1));

        // another session of the same runtime works while the damaged one is followed
        const healthy = await runtime.openSession({ workspace: tempDir() });
        const following = follow(runtime, sessionId);
        const turn = await healthy.submitTurn({ input: 'hi' });
        scripted.controller.drain();
        await turn.done;
        const { seen, ended, ms, ticks } = await following;
        expectLogCorrupt(ended, sequence, damage, sessionId);
        expect(ms).toBeLessThan(1_000);
        expect(ticks).toBeGreaterThan(0);
        // every envelope before the damaged page, once, in order; never one past it
        expect(seen).toEqual(range(seen.length));
        expect(seen.length).toBeLessThan(sequence);
        const healthyLog: EventEnvelope[] = await history(runtime, healthy.id);
        expectGapless(healthyLog);
        expect(types(healthyLog)).toContain('turn.settled');
      },
      60_000,
    );

    it('a lost end of the history (its last row deleted) is log_corrupt too', async () => {
      const { runtime, sessionId, sequence } = await damagedRuntime(backing(), 'missing', 'end');
      const read = await runtime.readEvents(sessionId, { fromSequence: 1, limit: 10_000 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expectLogCorrupt(read, sequence, 'missing', sessionId);
      const { seen, ended, ms } = await follow(runtime, sessionId);
      expectLogCorrupt(ended, sequence, 'missing', sessionId);
      expect(ms).toBeLessThan(1_000);
      expect(seen).toEqual(range(seen.length));
    }, 60_000);
  });
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}

describe('a runtime that starts on a log with an open damaged session', () => {
  it('starts, settles the other abandoned sessions and leaves the damaged one to a typed refusal', async () => {
    const path = join(tempDir(), 'events.db');
    const store = openSqliteEventStore({ path });
    for (const id of ['ses_damaged', 'ses_other']) {
      await store.append([opened(id, 1)]);
      // one append, one row: enough rows to damage one in the middle
      for (let s = 2; s <= 6; s++) await store.append([stateChanged(id, s)]);
    }
    await store.close();
    const sequence = damageSqlite(path, 'ses_damaged', 'missing');

    const { runtime } = await sqliteRuntime(path);
    expect(runtime.recoveredSessionIds).toEqual(['ses_other']);
    expect(types(await history(runtime, 'ses_other')).slice(-2)).toEqual([
      'session.state_changed',
      'session.closed',
    ]);
    const read = await runtime.readEvents('ses_damaged').then(
      () => undefined,
      (e: unknown) => e,
    );
    expectLogCorrupt(read, sequence, 'missing', 'ses_damaged');
    const resumed = await runtime.resumeSession('ses_damaged').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isRuntimeError(resumed) ? resumed.reason : resumed).toBe('log_corrupt');
  });
});
