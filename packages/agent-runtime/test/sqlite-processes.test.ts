/**
 * Several runtime processes on one SQLite file (ADR-0053), each a real child process: each owns
 * its own sessions, follows the others', routes a command to the owner (settled there once),
 * and a stalled owner whose lease lapsed is fenced off when it wakes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { openSqliteEventStore } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { RuntimeChild } from './runtime-child.js';
import { expectGapless, onCleanup, tempDir, until } from './support.js';

const CHILD = fileURLToPath(new URL('./fixtures/sqlite-share-child.ts', import.meta.url));

class Child extends RuntimeChild {
  constructor(path: string, leaseMs: number) {
    super(CHILD, [path, String(leaseMs)]);
  }

  async owner(): Promise<string> {
    return (await this.line((l) => l.startsWith('READY '), 'ready')).slice('READY '.length);
  }

  async open(workspace: string): Promise<string> {
    const before = this.lines.filter((l) => l.startsWith('SESSION ')).length;
    this.send(`open ${workspace}`);
    await until(
      () => this.lines.filter((l) => l.startsWith('SESSION ')).length > before,
      'a session',
      30_000,
    );
    return (this.lines.filter((l) => l.startsWith('SESSION ')).at(-1) ?? '').split(' ')[1] ?? '';
  }
}

function openStore(path: string) {
  const store = openSqliteEventStore({ path, pollMs: 10 });
  onCleanup(() => store.close());
  return store;
}

describe('SQLite: several runtime processes on one file', { timeout: 90_000 }, () => {
  it('each process owns its session; one follows the other live; a command for the other session is carried out by its owner and settled once', async () => {
    const path = join(tempDir(), 'events.db');
    const a = new Child(path, 5_000);
    const ownerA = await a.owner();
    const b = new Child(path, 5_000);
    const ownerB = await b.owner();
    const sa = await a.open(tempDir());
    const sb = await b.open(tempDir());
    const store = openStore(path);
    const owners = await store.commands?.owners();
    expect(owners?.get(sa)).toEqual({ owner: ownerA, self: false });
    expect(owners?.get(sb)).toEqual({ owner: ownerB, self: false });
    // neither start took the other's live session over
    expect((await store.listSessions()).map((s) => s.state)).toEqual(['ready', 'ready']);

    b.send(`follow ${sa}`);
    await b.line((l) => l.startsWith('SEQ 2 '), "the replay of A's session");
    // B closes A's session: routed through the command table, carried out by A
    b.send(`close ${sa}`);
    await b.line((l) => l === `CLOSED ${sa}`, 'the routed close');
    await b.line((l) => l === 'END', "the follow reaching A's session.closed");
    const seqs = b.lines.filter((l) => l.startsWith('SEQ ')).map((l) => l.split(' '));
    expect(seqs.map(([, n]) => Number(n))).toEqual(seqs.map((_, i) => i + 1));
    expect(seqs.at(-1)?.[2]).toBe('session.closed');

    const events = await store.read(sa, { fromSequence: 1, limit: 100 });
    expectGapless(events);
    expect(events.filter((e) => e.payload.type === 'session.closed')).toHaveLength(1);
    const db = new Database(path, { readonly: true });
    onCleanup(() => {
      db.close();
    });
    const rows = db
      .prepare('SELECT session_id, issued_by, accepted_by, state, settlement FROM commands')
      .all();
    expect(rows).toEqual([
      {
        session_id: sa,
        issued_by: ownerB,
        accepted_by: ownerA,
        state: 'settled',
        settlement: JSON.stringify({ outcome: 'done' }),
      },
    ]);
    // B's own session is still B's
    expect(await store.commands?.ownerOf(sb)).toEqual({ owner: ownerB, self: false });
  });

  it('a stalled owner whose lease lapsed is fenced off when it wakes: its appends are refused, the log stays gapless', async () => {
    const path = join(tempDir(), 'events.db');
    const a = new Child(path, 300);
    await a.owner();
    const sa = await a.open(tempDir());
    a.send(`busy ${sa}`);
    await a.line((l) => l.startsWith('DURABLE 20'), 'a busy run');
    // stalled between two transactions (SIGSTOP could land inside one and keep the file's
    // write lock: see ADR-0053); alive, so its lease lapses by expiry alone
    const wake = join(tempDir(), 'wake');
    a.send(`freeze ${wake}`);
    await a.line((l) => l === 'FROZEN', 'the stall');
    const store = openStore(path);
    for (const deadline = Date.now() + 10_000; !(await store.takeOver?.(sa));) {
      if (Date.now() > deadline) throw new Error("the stalled owner's lease never lapsed");
      await new Promise((r) => setTimeout(r, 20));
    }
    const before = (await store.getSession(sa))?.lastSequence ?? 0;
    writeFileSync(wake, '');
    await a.line((l) => l.startsWith('REFUSED '), 'the woken owner refused', 20_000);
    expect(a.lines.find((l) => l.startsWith('REFUSED '))).toBe('REFUSED lease_lost');
    // nothing the woken owner tried reached the log
    expect((await store.getSession(sa))?.lastSequence).toBe(before);
    expectGapless(await store.read(sa, { fromSequence: 1, limit: 100_000 }));
  });

  it('kill -9 of an owner: another process takes its session over at once, without waiting for the lease', async () => {
    const path = join(tempDir(), 'events.db');
    const a = new Child(path, 60_000);
    await a.owner();
    const sa = await a.open(tempDir());
    const store = openStore(path);
    expect(await store.takeOver?.(sa)).toBe(false);
    a.signal('SIGKILL');
    await a.exited;
    expect(await store.commands?.ownerOf(sa)).toBeUndefined();
    expect(await store.takeOver?.(sa)).toBe(true);
  });
});
