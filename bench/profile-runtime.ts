/**
 * One contestant of bench/runtime.ts alone, so that `node --cpu-prof` (or --heap-prof) profiles it
 * by itself: ONLY=adapter|memory|discard|normal|full, TURNS (200), DELTAS per turn (500); three
 * rounds, each printing CPU and wall ms per turn. `discard` is a store that keeps nothing: the
 * runtime's own cost without a store's. docs/performance.md has the command line.
 */
import type { EventStore, StoredSession } from '@relvo-labs/agent-runtime';
import { CONTESTANTS, openContestant, type ContestantName } from './support/runtime-contestants.js';
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
const deltas = Number(process.env.DELTAS ?? 500);
const known = (CONTESTANTS as readonly string[]).includes(which);
if (!known && which !== 'discard') throw new Error(`profile-runtime: unknown ONLY=${which}`);
const contestant = await openContestant(known ? (which as ContestantName) : 'memory', {
  turns: n,
  deltas,
  ...(which === 'discard' ? { store: discard } : {}),
});
try {
  for (let r = 0; r < 3; r++) {
    const res = await contestant.round();
    console.log(which, (res.cpuMs / n).toFixed(3), 'cpu ms/turn', (res.ms / n).toFixed(3), 'wall');
  }
} finally {
  await contestant.close();
}
