/**
 * The runtime's per-event overhead: the same recorded turns through the Codex adapter on a
 * replay transport, once with a counting sink (the adapter alone) and once registered in
 * `@relvo-labs/agent-runtime` (envelopes, gapless sequences, the event log: in memory, and SQLite
 * with synchronous=NORMAL and =FULL). Interleaved rounds, paired ratios, medians; overhead =
 * extra time per event.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createAgentRuntime,
  createMemoryEventStore,
  openSqliteEventStore,
  type EventStore,
} from '@relvo-labs/agent-runtime';
import { createCodexProvider } from '../src/index.js';
import {
  BENCH_WORKSPACE,
  recordedSession,
  replayTransport,
  turnBytes,
  type TurnBytes,
} from './support/replay-peer.js';
import { f1, f2, markdownTable, median } from './support/stats.js';

const gc = (): void => {
  (globalThis as { gc?: () => void }).gc?.();
};

interface Timed {
  /** Wall time of the timed turns. */
  readonly ms: number;
  /** This process's CPU time (user + system) over the same span: fsync waits are not in it. */
  readonly cpuMs: number;
  readonly events: number;
}

const cpuMsSince = (start: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

export async function adapterAlone(turns: readonly TurnBytes[]): Promise<Timed> {
  const transport = replayTransport({ session: recordedSession(), turns });
  const provider = createCodexProvider({ transport: () => transport });
  const session = await provider.createSession({
    options: {},
    workspace: { root: BENCH_WORKSPACE, ownership: 'borrowed' },
    sink: { emit: () => undefined },
  });
  let events = 0;
  const sink = {
    emit() {
      events += 1;
    },
  };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < turns.length; i++) {
    const run = await session.startRun({
      input: { parts: [{ type: 'text', text: 'hi' }] },
      sink,
      runRef: `r${i}`,
    });
    await run.completion;
  }
  const ms = performance.now() - t0;
  const cpuMs = cpuMsSince(cpu0);
  await session.dispose();
  return { ms, cpuMs, events };
}

export async function throughRuntime(
  turns: readonly TurnBytes[],
  store: EventStore,
): Promise<Timed> {
  const runtime = await createAgentRuntime({
    providers: {
      codex: () =>
        createCodexProvider({
          transport: () => replayTransport({ session: recordedSession(), turns }),
        }),
    },
    config: { defaultProfile: 'bench', profiles: { bench: { provider: 'codex' } } },
    store,
  });
  try {
    // the runtime checks that the workspace exists; the replay transport never looks at it
    const session = await runtime.openSession({ workspace: tmpdir() });
    // the first turn opens the provider session (handshake): keep it out of the timing
    const first = await session.submitTurn({ input: 'warm' });
    await first.done;
    const before = (await runtime.listSessions()).find((s) => s.sessionId === session.id);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 1; i < turns.length; i++) {
      const turn = await session.submitTurn({ input: 'hi' });
      const result = await turn.done;
      if (result.termination.outcome !== 'succeeded')
        throw new Error(`bench: runtime turn ${i} ended ${result.termination.outcome}`);
    }
    const ms = performance.now() - t0;
    const cpuMs = cpuMsSince(cpu0);
    const after = (await runtime.listSessions()).find((s) => s.sessionId === session.id);
    await session.close();
    return { ms, cpuMs, events: (after?.lastSequence ?? 0) - (before?.lastSequence ?? 0) };
  } finally {
    await runtime.shutdown();
  }
}

export interface RuntimeRow {
  readonly path: string;
  /** What an acknowledged envelope survives on this path. */
  readonly durability: string;
  readonly eventsPerTurn: number;
  /** Median over the measured rounds. */
  readonly msPerTurn: number;
  /** Provider events per second of wall time through this path (median round). */
  readonly eventsPerSec: number;
  /** Extra µs per provider event compared with the adapter alone (median round). */
  readonly overheadUs: number;
  /** Median over rounds of this path's wall time ÷ the adapter's in the same round. */
  readonly ratio: number;
  /** The same for CPU time; and the lowest and highest round. */
  readonly cpuRatio: number;
  readonly cpuRatioRange: readonly [number, number];
}

/**
 * Every contestant once per round, in the same order, after one unmeasured round (the JIT and
 * the page cache); each round's ratios are taken against the adapter's time in that round, and
 * the table gives their median: a drift in the machine's speed across rounds cancels out, and
 * a round spoiled by a neighbour's burst is outvoted.
 */
export async function runtimeOverhead(
  options: { turns?: number; deltas?: number; rounds?: number } = {},
): Promise<{ turns: number; rounds: number; load: string; rows: RuntimeRow[] }> {
  const turnCount = options.turns ?? 100;
  const deltas = options.deltas ?? 500;
  const rounds = options.rounds ?? 7;
  const rec = recordedSession();
  const turns = Array.from({ length: turnCount + 1 }, (_, i) =>
    turnBytes(rec, `bench-rt-turn-${i.toString().padStart(6, '0')}`, deltas),
  );
  const dir = mkdtempSync(join(tmpdir(), 'relvo-bench-rt-'));
  let dbs = 0;
  const contestants: [string, string, () => Promise<Timed>][] = [
    ['adapter alone (counting sink)', 'nothing recorded', () => adapterAlone(turns.slice(1))],
    [
      'runtime, in-memory event store',
      'none: gone when the process exits',
      () => throughRuntime(turns, createMemoryEventStore()),
    ],
    [
      'runtime, SQLite synchronous=NORMAL',
      'survives the process being killed, not power loss',
      () =>
        throughRuntime(
          turns,
          openSqliteEventStore({ path: join(dir, `n${dbs++}.db`), synchronous: 'normal' }),
        ),
    ],
    [
      'runtime, SQLite synchronous=FULL',
      'survives power loss: fsync before append resolves',
      () =>
        throughRuntime(
          turns,
          openSqliteEventStore({ path: join(dir, `f${dbs++}.db`), synchronous: 'full' }),
        ),
    ],
  ];
  const results: Timed[][] = contestants.map(() => []);
  try {
    for (let r = 0; r <= rounds; r++) {
      for (const [i, [, , run]] of contestants.entries()) {
        gc();
        const result = await run();
        if (r > 0) results[i]!.push(result);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const base = results[0]!;
  return {
    turns: turnCount,
    rounds,
    load: loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
    rows: contestants.map(([path, durability], i) => {
      const mine = results[i]!;
      const ms = median(mine.map((t) => t.ms));
      const baseMs = median(base.map((t) => t.ms));
      const events = base[0]!.events;
      const cpuRatios = mine.map((t, r) => t.cpuMs / base[r]!.cpuMs);
      return {
        path,
        durability,
        eventsPerTurn: mine[0]!.events / turnCount,
        msPerTurn: ms / turnCount,
        // the same provider events either way; the runtime adds its own envelopes per turn
        eventsPerSec: (events * 1000) / ms,
        overheadUs: ((ms - baseMs) * 1000) / events,
        ratio: median(mine.map((t, r) => t.ms / base[r]!.ms)),
        cpuRatio: median(cpuRatios),
        cpuRatioRange: [Math.min(...cpuRatios), Math.max(...cpuRatios)],
      };
    }),
  };
}

/** The section `npm run bench` prints, and `npm run bench:runtime` on its own. */
export async function runtimeSection(): Promise<string> {
  const r = await runtimeOverhead();
  return [
    `\n## The runtime's per-event overhead\nthe same recorded turns (agent-message delta repeated) through the Codex adapter on a replay transport; ${r.turns} timed turns per contestant and round, ${r.rounds} interleaved rounds after one unmeasured; ratios are medians of each round's ratio to the adapter in that round; load average at the end ${r.load}\n`,
    markdownTable(
      r.rows.map((row) => ({
        path: row.path,
        'events per turn': f1(row.eventsPerTurn),
        'ms per turn': f2(row.msPerTurn),
        'provider events/s': row.eventsPerSec.toFixed(0),
        'time vs adapter alone': `${f2(row.ratio)}×`,
        'CPU vs adapter alone': `${f2(row.cpuRatio)}×`,
        'CPU ratio, lowest…highest round': `${f2(row.cpuRatioRange[0])}…${f2(row.cpuRatioRange[1])}`,
        'extra µs per provider event': f2(row.overheadUs),
        'an acknowledged envelope': row.durability,
      })),
    ),
  ].join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await runtimeSection());
}
