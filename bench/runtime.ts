/**
 * The agent runtime's cost per provider event, side by side for the in-memory and SQLite
 * stores: throughput (emit → intake validation → envelope → store append → live delivery) and
 * the added latency of one event from `emit` to its durable delivery to a subscriber.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  defineProviderDescriptor,
  type AgentProvider,
  type ProviderEventSink,
  type ProviderRunTermination,
} from '@relvo-labs/agent-provider';
import {
  createAgentRuntime,
  createMemoryEventStore,
  openSqliteEventStore,
  type EventEnvelope,
  type EventStore,
} from '@relvo-labs/agent-runtime';

/** A provider whose one run hands its sink to the bench and ends when told. */
function benchProvider(): {
  provider: AgentProvider;
  run: () => Promise<{ sink: ProviderEventSink; end: () => void }>;
} {
  let deliver: ((r: { sink: ProviderEventSink; end: () => void }) => void) | undefined;
  const provider: AgentProvider = {
    describe: () =>
      defineProviderDescriptor({
        providerId: 'bench',
        providerVersion: '0.0.0',
        displayName: 'bench',
        run: { interrupt: { mode: 'immediate' }, streaming: { messageDeltas: true } },
        workspace: { requires: 'directory' },
      }),
    createSession: () =>
      Promise.resolve({
        startRun(request) {
          let end!: () => void;
          const completion = new Promise<ProviderRunTermination>((resolve) => {
            end = () => {
              resolve({ outcome: 'succeeded' });
            };
          });
          deliver?.({ sink: request.sink, end });
          return Promise.resolve({ completion, interrupt: () => Promise.resolve() });
        },
        respondToInteraction: () => Promise.resolve(),
        dispose: () => Promise.resolve(),
      }),
  };
  return {
    provider,
    run: () =>
      new Promise((resolve) => {
        deliver = resolve;
      }),
  };
}

export interface StoreCase {
  readonly name: string;
  readonly open: (dir: string) => EventStore;
}

export const STORE_CASES: readonly StoreCase[] = [
  { name: 'in-memory', open: () => createMemoryEventStore() },
  {
    name: 'SQLite WAL synchronous=FULL (default)',
    open: (dir) => openSqliteEventStore({ path: join(dir, 'full.db') }),
  },
  {
    name: 'SQLite WAL synchronous=NORMAL',
    open: (dir) => openSqliteEventStore({ path: join(dir, 'normal.db'), synchronous: 'normal' }),
  },
];

interface Live {
  readonly sink: ProviderEventSink;
  /** Resolves with the envelope of the given sequence once a subscriber received it. */
  readonly seen: (sequence: number) => Promise<EventEnvelope>;
  readonly lastSequence: () => number;
  readonly close: () => Promise<void>;
}

async function openLive(store: EventStore, dir: string): Promise<Live> {
  const bench = benchProvider();
  const runtime = await createAgentRuntime({
    providers: { bench: () => bench.provider },
    config: { defaultProfile: 'b', profiles: { b: { provider: 'bench' } } },
    store,
  });
  const session = await runtime.openSession({ workspace: dir });
  const started = bench.run();
  const turn = await session.submitTurn({ input: 'bench' });
  const { sink, end } = await started;
  let last = 0;
  const waiters = new Map<number, (e: EventEnvelope) => void>();
  const subscription = session.subscribe();
  void (async () => {
    for await (const e of subscription) {
      last = e.sequence;
      waiters.get(e.sequence)?.(e);
      waiters.delete(e.sequence);
    }
  })();
  // wait until the run is active (its state change is delivered)
  while (session.activeRunId === undefined || last < 6) await new Promise((r) => setImmediate(r));
  return {
    sink,
    lastSequence: () => last,
    seen: (sequence) =>
      new Promise((resolve) => {
        if (last >= sequence) throw new Error('already seen');
        waiters.set(sequence, resolve);
      }),
    close: async () => {
      end();
      await turn.done;
      await runtime.shutdown();
    },
  };
}

const TEXT = 'a provider delta of typical size, about sixty characters long.';

/** Events per second for `count` deltas emitted in bursts of `burst` per macrotask. */
export async function throughputRound(c: StoreCase, count: number, burst: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-bench-'));
  try {
    const live = await openLive(c.open(dir), dir);
    const target = live.lastSequence() + count;
    const done = live.seen(target);
    const t0 = performance.now();
    for (let sent = 0; sent < count;) {
      for (let k = 0; k < burst && sent < count; k += 1, sent += 1) {
        live.sink.emit({ payload: { type: 'run.message_delta', text: TEXT } });
      }
      await new Promise((r) => setImmediate(r));
    }
    await done;
    const seconds = (performance.now() - t0) / 1000;
    await live.close();
    return count / seconds;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Per-event latency (ms) from emit to durable delivery to a subscriber, one event at a time. */
export async function latencyRound(c: StoreCase, samples: number): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-bench-'));
  try {
    const live = await openLive(c.open(dir), dir);
    const out: number[] = [];
    for (let i = 0; i < samples; i += 1) {
      const next = live.seen(live.lastSequence() + 1);
      const t0 = performance.now();
      live.sink.emit({ payload: { type: 'run.message_delta', text: TEXT } });
      await next;
      out.push(performance.now() - t0);
    }
    await live.close();
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

export async function runtimeBench(): Promise<void> {
  const COUNT = 20_000;
  const BURST = 50;
  const ROUNDS = 5;
  const LATENCY_SAMPLES = 2_000;
  const rates = new Map<string, number[]>();
  // interleaved rounds so machine load affects every store alike
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const c of STORE_CASES) {
      const list = rates.get(c.name) ?? [];
      list.push(await throughputRound(c, COUNT, BURST));
      rates.set(c.name, list);
    }
  }
  const memoryRate = quantile(rates.get(STORE_CASES[0]!.name) ?? [], 0.5);
  console.log(
    `\nAgent runtime throughput — ${COUNT} provider deltas per round in bursts of ${BURST} per tick, median of ${ROUNDS} interleaved rounds (intake validation + envelope + store append + durable live delivery)`,
  );
  console.table(
    STORE_CASES.map((c) => {
      const median = quantile(rates.get(c.name) ?? [], 0.5);
      return {
        store: c.name,
        'events/s (median)': Math.round(median),
        'events/s (best)': Math.round(Math.max(...(rates.get(c.name) ?? []))),
        'vs in-memory': `${(median / memoryRate).toFixed(2)}x`,
      };
    }),
  );
  console.log(
    `\nAgent runtime added latency per provider event — emit → durable delivery to a subscriber, one event at a time, ${LATENCY_SAMPLES} samples`,
  );
  const rows = [];
  for (const c of STORE_CASES) {
    const samples = await latencyRound(c, LATENCY_SAMPLES);
    rows.push({
      store: c.name,
      'median ms': quantile(samples, 0.5).toFixed(3),
      'p99 ms': quantile(samples, 0.99).toFixed(3),
      'max ms': Math.max(...samples).toFixed(3),
    });
  }
  console.table(rows);
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) await runtimeBench();
