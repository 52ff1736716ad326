/**
 * The contestants of bench/runtime.ts, each kept the way a host keeps it: one provider (the
 * adapter alone) or one runtime with its event store for the contestant's whole life, with one
 * session open throughout, and a new session for every round. A round replays the same recorded
 * turns through its session, after a warm-up turn outside the timing (the handshake).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createAgentRuntime,
  createMemoryEventStore,
  openSqliteEventStore,
  type AgentRuntime,
  type EventStore,
  type RuntimeTelemetryOptions,
} from '@relvo-labs/agent-runtime';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { createCodexProvider } from '../../src/index.js';
import {
  BENCH_WORKSPACE,
  recordedSession,
  replayTransport,
  turnBytes,
  type TurnBytes,
} from './replay-peer.js';

export const CONTESTANTS = [
  'adapter',
  'memory',
  'otel-noop',
  'otel-sdk',
  'normal',
  'full',
] as const;
export type ContestantName = (typeof CONTESTANTS)[number];

export interface Timed {
  /** Wall time of the timed turns. */
  readonly ms: number;
  /** This process's CPU time (user + system, all threads) over the same span: fsync waits are not in it. */
  readonly cpuMs: number;
  /** Provider events the timed turns delivered (the adapter) or envelopes they appended (the runtime). */
  readonly events: number;
}

export interface Contestant {
  /** One session, a warm-up turn outside the timing (the handshake), then the timed turns. */
  round(): Promise<Timed>;
  close(): Promise<void>;
}

export interface ContestantOptions {
  /** Timed turns per round. */
  readonly turns: number;
  /** Agent-message deltas per turn. */
  readonly deltas: number;
  /** A store other than the contestant's own (bench/profile-runtime.ts's store that keeps nothing). */
  readonly store?: () => EventStore;
}

const cpuMsSince = (start: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

/** The recorded turn, `turns + 1` times under distinct turn ids (the first is the warm-up). */
function benchTurns(turns: number, deltas: number): TurnBytes[] {
  const rec = recordedSession();
  return Array.from({ length: turns + 1 }, (_, i) =>
    turnBytes(rec, `bench-rt-turn-${i.toString().padStart(6, '0')}`, deltas),
  );
}

type CodexProvider = ReturnType<typeof createCodexProvider>;

async function adapterSession(provider: CodexProvider, sink: { emit(): void }) {
  const session = await provider.createSession({
    options: {},
    workspace: { root: BENCH_WORKSPACE, ownership: 'borrowed' },
    sink: { emit: () => undefined },
  });
  const warm = await session.startRun({
    input: { parts: [{ type: 'text', text: 'warm' }] },
    sink,
    runRef: 'warm',
  });
  await warm.completion;
  return session;
}

async function adapterAlone(turns: readonly TurnBytes[]): Promise<Contestant> {
  const rec = recordedSession();
  const provider = createCodexProvider({
    transport: () => replayTransport({ session: rec, turns }),
  });
  const idle = await adapterSession(provider, { emit: () => undefined });
  return {
    async round() {
      let events = 0;
      const sink = {
        emit() {
          events += 1;
        },
      };
      const session = await adapterSession(provider, sink);
      events = 0;
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 1; i < turns.length; i++) {
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
    },
    close: () => idle.dispose(),
  };
}

/**
 * The OpenTelemetry SDK as a host would set it up, minus the network: spans batched to an
 * in-memory exporter (a few thousand per process), metrics aggregated for a reader that is
 * never due in a round.
 */
function sdkTelemetry(): { telemetry: RuntimeTelemetryOptions; shutdown(): Promise<void> } {
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(new InMemorySpanExporter())],
  });
  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
        exportIntervalMillis: 3_600_000,
      }),
    ],
  });
  return {
    telemetry: { tracerProvider, meterProvider },
    shutdown: async () => {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

async function throughRuntime(
  turns: readonly TurnBytes[],
  store: EventStore,
  telemetry?: RuntimeTelemetryOptions,
): Promise<Contestant> {
  const rec = recordedSession();
  const runtime: AgentRuntime = await createAgentRuntime({
    providers: {
      codex: () =>
        createCodexProvider({ transport: () => replayTransport({ session: rec, turns }) }),
    },
    config: { defaultProfile: 'bench', profiles: { bench: { provider: 'codex' } } },
    store,
    ...(telemetry === undefined ? {} : { telemetry }),
  });
  const lastSequence = async (id: string): Promise<number> =>
    (await runtime.listSessions()).find((s) => s.sessionId === id)?.lastSequence ?? 0;
  const open = async () => {
    // the runtime checks that the workspace exists; the replay transport never looks at it
    const session = await runtime.openSession({ workspace: tmpdir() });
    const first = await session.submitTurn({ input: 'warm' });
    await first.done;
    return session;
  };
  await open();
  return {
    async round() {
      const session = await open();
      const before = await lastSequence(session.id);
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
      const after = await lastSequence(session.id);
      await session.close();
      return { ms, cpuMs, events: after - before };
    },
    close: () => runtime.shutdown(),
  };
}

/** Builds one contestant; `close()` shuts its runtime down and removes its database. */
export async function openContestant(
  name: ContestantName,
  options: ContestantOptions,
): Promise<Contestant> {
  const turns = benchTurns(options.turns, options.deltas);
  if (name === 'adapter') return adapterAlone(turns);
  // telemetry on, with no SDK registered: the API's no-op tracer and meter
  if (name === 'otel-noop') return throughRuntime(turns, createMemoryEventStore(), {});
  if (name === 'otel-sdk') {
    const sdk = sdkTelemetry();
    const inner = await throughRuntime(turns, createMemoryEventStore(), sdk.telemetry);
    return {
      round: () => inner.round(),
      close: () => inner.close().finally(() => sdk.shutdown()),
    };
  }
  if (name === 'memory' || options.store !== undefined) {
    return throughRuntime(turns, options.store?.() ?? createMemoryEventStore());
  }
  const dir = mkdtempSync(join(tmpdir(), 'relvo-bench-rt-'));
  const inner = await throughRuntime(
    turns,
    openSqliteEventStore({ path: join(dir, 'events.db'), synchronous: name }),
  );
  return {
    round: () => inner.round(),
    async close() {
      try {
        await inner.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
