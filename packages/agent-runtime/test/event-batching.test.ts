/**
 * Batching per macrotask on a session's log: a subscriber never sees an envelope before its
 * append resolved, what is emitted in one macrotask is one append, and a failed batch leaves
 * nothing of it visible, no gap, and a typed store_io error.
 */
import { isRuntimeError } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { openedLog } from './session-log.js';
import { batchHeldStore } from './store-wrap.js';
import { until } from './support.js';

const macrotask = (): Promise<void> =>
  new Promise((resolve) => {
    setImmediate(resolve);
  });

describe('batching per macrotask', () => {
  it('a subscriber never sees an envelope before its append resolved', async () => {
    const { store, held, durableUpTo } = batchHeldStore();
    const seen: { sequence: number; durable: number }[] = [];
    const { log } = await openedLog(store, 'ses_gate', {
      deliver: (e) => seen.push({ sequence: e.sequence, durable: durableUpTo() }),
    });
    for (let burst = 0; burst < 3; burst++) {
      for (let i = 0; i < 50; i++) {
        log.append({ type: 'diagnostic', level: 'debug', message: `${burst}.${i}` });
      }
      await macrotask();
    }
    await until(() => held.length === 1, 'the first batch');
    expect(seen).toEqual([]);
    for (let released = 0; log.committedSequence < 151; released++) {
      await until(() => held.length > released, 'the next batch');
      // held: nothing of this batch has reached the subscriber
      expect(seen.at(-1)?.sequence ?? 0).toBe(durableUpTo());
      const last = held[released]!.batch.at(-1)!.sequence;
      held[released]!.release();
      await until(() => log.committedSequence === last, 'the batch committed');
    }
    expect(held.length).toBeGreaterThan(1);
    expect(seen.map((s) => s.sequence)).toEqual(Array.from({ length: 151 }, (_, i) => i + 1));
    for (const s of seen) expect(s.sequence).toBeLessThanOrEqual(s.durable);
  });

  it('what is emitted in one macrotask is one append; a failed batch leaves no trace and no gap', async () => {
    const { store, held } = batchHeldStore();
    const seen: number[] = [];
    const { log, storeFailed } = await openedLog(store, 'ses_fail', {
      deliver: (e) => seen.push(e.sequence),
    });
    // one macrotask, many microtasks (a provider that awaits between emits)
    for (let i = 0; i < 40; i++) {
      log.append({ type: 'diagnostic', level: 'debug', message: `${i}` });
      await Promise.resolve();
    }
    await until(() => held.length === 1, 'the first batch');
    expect(held[0]!.batch.map((e) => e.sequence)).toEqual(
      Array.from({ length: 41 }, (_, i) => i + 1),
    );
    held[0]!.release();
    await log.durable();
    for (let i = 0; i < 40; i++)
      log.append({ type: 'diagnostic', level: 'debug', message: `${i}` });
    await until(() => held.length === 2, 'the second batch');
    expect(held[1]!.batch).toHaveLength(40);
    held[1]!.release(true);
    const error: unknown = await log.durable().catch((e: unknown) => e);
    expect(isRuntimeError(error) && [error.code, error.reason]).toEqual([
      'store_unavailable',
      'store_io',
    ]);
    expect(storeFailed()).toBe(true);
    // nothing after the failure is written, so the stored history stays gapless
    log.append({ type: 'diagnostic', level: 'debug', message: 'after' });
    await macrotask();
    expect(held).toHaveLength(2);
    const stored = await store.read('ses_fail', { fromSequence: 1, limit: 1000 });
    expect(stored.map((e) => e.sequence)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
    expect(seen).toEqual(stored.map((e) => e.sequence));
    expect((await store.getSession('ses_fail'))?.lastSequence).toBe(41);
  });
});
