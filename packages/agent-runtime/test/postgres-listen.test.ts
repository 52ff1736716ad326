import { EventEmitter } from 'node:events';
import type { Pool } from 'pg';
import { describe, expect, it } from 'vitest';
import { AppendWatcher } from '../src/store/postgres-listen.js';

/** A pool client that counts releases the way pg-pool refuses a second one. */
class FakeClient extends EventEmitter {
  releases = 0;
  queries: string[] = [];
  query(sql: string): Promise<void> {
    this.queries.push(sql);
    return Promise.resolve();
  }
  release(): void {
    this.releases += 1;
    if (this.releases > 1)
      throw new Error('Release called on client which has already been released to the pool.');
  }
}

function fakePool(): { pool: Pool; clients: FakeClient[] } {
  const clients: FakeClient[] = [];
  const pool = {
    connect: () => {
      const c = new FakeClient();
      clients.push(c);
      return Promise.resolve(c);
    },
  } as unknown as Pool;
  return { pool, clients };
}

describe('AppendWatcher', () => {
  it('gives a client that reports two errors back once, reconnects and wakes watchers', async () => {
    const { pool, clients } = fakePool();
    const watcher = new AppendWatcher(pool, 'relvo_appends');
    let woken = 0;
    await watcher.watch('s1', () => {
      woken += 1;
    });
    const first = clients[0]!;
    first.emit('error', new Error('terminating connection'));
    first.emit('error', new Error('Connection terminated unexpectedly'));
    expect(first.releases).toBe(1);
    expect(woken).toBeGreaterThan(0);
    // the re-established connection listens again
    await waitUntil(() => clients.length === 2 && clients[1]!.queries.length === 1);
    expect(clients[1]!.queries[0]).toBe('LISTEN "relvo_appends"');
    await watcher.close();
    expect(clients[1]!.releases).toBe(1);
  });

  it('an error after close does not release the client a second time', async () => {
    const { pool, clients } = fakePool();
    const watcher = new AppendWatcher(pool, 'relvo_appends');
    await watcher.watch('s1', () => undefined);
    await watcher.close();
    expect(() => clients[0]!.emit('error', new Error('late'))).not.toThrow();
    expect(clients[0]!.releases).toBe(1);
    expect(clients).toHaveLength(1);
  });
});

async function waitUntil(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 1));
  expect(ok()).toBe(true);
}
