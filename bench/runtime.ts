/**
 * The runtime's per-event overhead: the same recorded turns through the Codex adapter on a
 * replay transport, once with a counting sink (the adapter alone) and once registered in
 * `@relvo-labs/agent-runtime` (envelopes, gapless sequences, the event log: in memory, and SQLite
 * with synchronous=NORMAL and =FULL; in memory with telemetry on, through the API's no-op and
 * through the OpenTelemetry SDK). Each contestant lives in a process of its own
 * (bench/runtime-child.ts), kept as a host keeps its runtime, and five generations of such
 * processes run one after another; within one, the rounds alternate between the contestants, one
 * process working at a time. Paired ratios, medians; overhead = extra time per event. adr/0043
 * says why one process each.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ChildReply } from './runtime-child.js';
import { f1, f2, markdownTable, median } from './support/stats.js';
import type { ContestantName, Timed } from './support/runtime-contestants.js';

const CHILD = fileURLToPath(new URL('./runtime-child.ts', import.meta.url));
const CHILD_FLAGS = ['--conditions=relvo-source', '--import', 'tsx'];
/** A round of 100 turns takes well under a second here; a child silent this long is stuck. */
const REPLY_MS = 120_000;

/** The child's next reply, or a failure when it exits, fails or stays silent past the bound. */
function nextReply(child: ChildProcess, name: string): Promise<ChildReply> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (reply: ChildReply): void => {
      done();
      resolve(reply);
    };
    const onExit = (code: number | null): void => {
      done();
      reject(new Error(`bench: the ${name} contestant exited (${String(code)})`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`bench: the ${name} contestant did not answer within ${REPLY_MS} ms`));
    }, REPLY_MS);
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

interface Child {
  readonly name: ContestantName;
  readonly process: ChildProcess;
}

async function startChild(name: ContestantName, turns: number, deltas: number): Promise<Child> {
  // the flags the bench scripts run with, whoever forks (npm run bench, or a test's worker)
  const child = fork(CHILD, [name, String(turns), String(deltas)], {
    stdio: 'inherit',
    execArgv: CHILD_FLAGS,
  });
  const reply = await nextReply(child, name);
  if (reply.type !== 'ready') throw new Error(`bench: the ${name} contestant did not start`);
  return { name, process: child };
}

async function timedRound(child: Child): Promise<Timed> {
  const replied = nextReply(child.process, child.name);
  child.process.send({ type: 'round' });
  const reply = await replied;
  if (reply.type === 'timed') return reply.timed;
  throw new Error(
    `bench: the ${child.name} contestant failed: ${reply.type === 'failed' ? reply.message : reply.type}`,
  );
}

/** Asks each child to shut down; one still there after 10 s is killed. */
async function stopChildren(children: readonly Child[]): Promise<void> {
  await Promise.all(
    children.map(async ({ process: child }) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => {
        child.once('exit', () => {
          resolve();
        });
      });
      if (child.connected) child.send({ type: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }),
  );
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

const PATHS: readonly (readonly [ContestantName, string, string])[] = [
  ['adapter', 'adapter alone (counting sink)', 'nothing recorded'],
  ['memory', 'runtime, in-memory event store', 'none: gone when the process exits'],
  [
    'otel-noop',
    'runtime, in-memory, telemetry: {} with no SDK (API no-op)',
    'none: gone when the process exits',
  ],
  [
    'otel-sdk',
    'runtime, in-memory, telemetry with the OpenTelemetry SDK',
    'none: gone when the process exits',
  ],
  [
    'normal',
    'runtime, SQLite synchronous=NORMAL',
    'survives the process being killed, not power loss',
  ],
  ['full', 'runtime, SQLite synchronous=FULL', 'survives power loss: fsync before append resolves'],
];

/**
 * Every contestant once per round, in the same order, after `warmRounds` unmeasured rounds (the
 * JIT); each round's ratios are taken against the adapter's time in that round, and the table
 * gives their median: a drift in the machine's speed across rounds cancels out, and a round
 * spoiled by a neighbour's burst is outvoted. Each contestant's garbage, collections included,
 * stays in its own process and its own figures.
 */
export async function runtimeOverhead(
  options: {
    turns?: number;
    deltas?: number;
    generations?: number;
    rounds?: number;
    warmRounds?: number;
  } = {},
): Promise<{
  turns: number;
  generations: number;
  rounds: number;
  warmRounds: number;
  load: string;
  rows: RuntimeRow[];
}> {
  const turnCount = options.turns ?? 100;
  const deltas = options.deltas ?? 500;
  const generations = options.generations ?? 5;
  const rounds = options.rounds ?? 3;
  const warmRounds = options.warmRounds ?? 6;
  const results: Timed[][] = PATHS.map(() => []);
  for (let g = 0; g < generations; g++) {
    const children: Child[] = [];
    try {
      // started together, but a child that failed to start is still stopped with the others
      const started = await Promise.allSettled(
        PATHS.map(([name]) => startChild(name, turnCount, deltas)),
      );
      for (const s of started) if (s.status === 'fulfilled') children.push(s.value);
      const failed = started.find((s) => s.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
      for (let r = 0; r < warmRounds + rounds; r++) {
        for (const [i, child] of children.entries()) {
          const result = await timedRound(child);
          if (r >= warmRounds) results[i]!.push(result);
        }
      }
    } finally {
      await stopChildren(children);
    }
  }
  const base = results[0]!;
  return {
    turns: turnCount,
    generations,
    rounds,
    warmRounds,
    load: loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
    rows: PATHS.map(([, path, durability], i) => {
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
    `\n## The runtime's per-event overhead\nthe same recorded turns (agent-message delta repeated) through the Codex adapter on a replay transport; each contestant in a process of its own, ${r.generations} processes each one after another; in each, ${r.rounds} measured rounds of ${r.turns} turns after ${r.warmRounds} unmeasured, alternating between the contestants; ratios are medians of each round's ratio to the adapter in that round; load average at the end ${r.load}\n`,
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
