/**
 * One contestant of bench/runtime.ts alone, so that `node --cpu-prof` (or --heap-prof) profiles it
 * by itself: ONLY=adapter|memory|discard|normal|full, TURNS (200), DELTAS per turn (500); three
 * rounds, each printing CPU and wall ms per turn. `discard` is a store that keeps nothing: the
 * runtime's own cost without a store's. docs/performance.md has the command line.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import {
  createMemoryEventStore,
  openSqliteEventStore,
  type EventStore,
  type StoredSession,
} from '@relvo-labs/agent-runtime';
import { adapterAlone, throughRuntime } from './runtime.js';
import { recordedSession, turnBytes } from './support/replay-peer.js';
const which = process.env.ONLY ?? 'memory';
const discard = (): EventStore => {
  const sessions = new Map<string, StoredSession>();
  return {
    kind: 'memory',
    claim: () => Promise.resolve(),
    append: (b) => {
      const l = b[b.length - 1];
      if (l)
        sessions.set(l.sessionId, {
          sessionId: l.sessionId,
          lastSequence: l.sequence,
          state: 'ready',
          defaultProfile: 'bench',
          openedAt: '',
          updatedAt: '',
        });
      return Promise.resolve();
    },
    read: () => Promise.resolve([]),
    getSession: (id) => Promise.resolve(sessions.get(id)),
    listSessions: () => Promise.resolve([...sessions.values()]),
    close: () => Promise.resolve(),
  };
};
const n = Number(process.env.TURNS ?? 200);
const rec = recordedSession();
const turns = Array.from({ length: n + 1 }, (_, i) =>
  turnBytes(
    rec,
    `bench-rt-turn-${i.toString().padStart(6, '0')}`,
    Number(process.env.DELTAS ?? 500),
  ),
);
const dir = mkdtempSync(join(tmpdir(), 'prof-'));
for (let r = 0; r < 3; r++) {
  const res =
    which === 'adapter'
      ? await adapterAlone(turns.slice(1))
      : await throughRuntime(
          turns,
          which === 'memory'
            ? createMemoryEventStore()
            : which === 'discard'
              ? discard()
              : openSqliteEventStore({
                  path: join(dir, `x${r}.db`),
                  synchronous: which === 'full' ? 'full' : 'normal',
                }),
        );
  console.log(which, (res.cpuMs / n).toFixed(3), 'cpu ms/turn', (res.ms / n).toFixed(3), 'wall');
}
