/**
 * The adapter without a process: frames/s through the whole path (decoder → JSON-RPC client →
 * correlator → translation → sink) on a transport replaying recorded frames, as a ratio to the
 * decoder alone on the same bytes; and the heap one idle session costs.
 */
import type { ProviderEventSink, ProviderSession } from '@relvo-labs/agent-provider';
import { JsonlDecoder } from '../src/jsonl/decoder.js';
import { createCodexProvider } from '../src/index.js';
import {
  BENCH_WORKSPACE,
  recordedSession,
  replayTransport,
  turnBytes,
  type TurnBytes,
} from './support/replay-peer.js';
import { transcriptRelease } from './support/recorded.js';

const CHUNK = 64 * 1024;
const WARMUP_ROUNDS = 3;
/** Process CPU time (user + system), ms: unlike wall time, not stretched while descheduled. */
const cpuNow = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const gc = (): void => {
  (globalThis as { gc?: () => void }).gc?.();
};

const countingSink = (): ProviderEventSink & { count: number } => {
  const sink = {
    count: 0,
    emit() {
      sink.count += 1;
    },
  };
  return sink;
};

export interface PathResult {
  readonly release: string;
  readonly turns: number;
  readonly framesPerTurn: number;
  readonly mb: number;
  readonly decoderFps: number;
  readonly adapterFps: number;
  /** adapter frames/s ÷ decoder frames/s (best of the interleaved rounds each). */
  readonly ratio: number;
  /** The same from process CPU time per round (best each), which machine load disturbs less. */
  readonly decoderCpuFps: number;
  readonly adapterCpuFps: number;
  readonly cpuRatio: number;
  readonly events: number;
}

/** One session, `turns` sequential runs; returns elapsed ms from the first startRun to the last completion. */
async function adapterRound(
  turns: readonly TurnBytes[],
): Promise<{ ms: number; cpuMs: number; events: number }> {
  const session = recordedSession();
  const transport = replayTransport({ session, turns });
  const provider = createCodexProvider({ transport: () => transport });
  const opened = await provider.createSession({
    options: {},
    workspace: { root: BENCH_WORKSPACE, ownership: 'borrowed' },
    sink: countingSink(),
  });
  const sink = countingSink();
  const c0 = cpuNow();
  const t0 = performance.now();
  for (let i = 0; i < turns.length; i++) {
    const run = await opened.startRun({
      input: { parts: [{ type: 'text', text: 'hi' }] },
      sink,
      runRef: `r${i}`,
    });
    const end = await run.completion;
    if (end.outcome !== 'succeeded') throw new Error(`bench: turn ${i} ended ${end.outcome}`);
  }
  const ms = performance.now() - t0;
  const cpuMs = cpuNow() - c0;
  await opened.dispose();
  return { ms, cpuMs, events: sink.count };
}

function decoderRound(turns: readonly TurnBytes[]): { ms: number; cpuMs: number; frames: number } {
  const parts: Buffer[] = [];
  // the same chunks the replay peer feeds: the reply alone, then the body 64 KiB at a time
  for (const t of turns) {
    parts.push(t.reply(3));
    for (let i = 0; i < t.body.length; i += CHUNK) parts.push(t.body.subarray(i, i + CHUNK));
  }
  let frames = 0;
  const c0 = cpuNow();
  const t0 = performance.now();
  const d = new JsonlDecoder({
    onFrame: () => {
      frames += 1;
    },
  });
  for (const p of parts) d.write(p);
  d.end();
  return { ms: performance.now() - t0, cpuMs: cpuNow() - c0, frames };
}

export async function adapterPath(
  options: { turns?: number; deltas?: number; rounds?: number } = {},
): Promise<PathResult> {
  const turnCount = options.turns ?? 40;
  const deltas = options.deltas ?? 2000;
  const rounds = options.rounds ?? 5;
  const rec = recordedSession();
  const turns = Array.from({ length: turnCount }, (_, i) =>
    turnBytes(rec, `bench-turn-${i.toString().padStart(6, '0')}`, deltas),
  );
  const frames = turns.reduce((n, t) => n + t.frames, 0);
  const bytes = turns.reduce((n, t) => n + t.body.length, 0);
  let bestAdapter = Infinity;
  let bestDecoder = Infinity;
  let bestAdapterCpu = Infinity;
  let bestDecoderCpu = Infinity;
  let events = 0;
  // Warm-up: whole rounds, not a couple of turns. The decoder alone is compiled after a few
  // chunks, the whole path only after thousands of frames; a short warm-up measured how fast
  // the JIT settles rather than what a host's hundredth turn costs.
  for (let w = 0; w < WARMUP_ROUNDS; w++) {
    await adapterRound(turns);
    decoderRound(turns);
  }
  // then interleaved rounds: best time each
  for (let r = 0; r < rounds; r++) {
    gc();
    const a = await adapterRound(turns);
    bestAdapter = Math.min(bestAdapter, a.ms);
    bestAdapterCpu = Math.min(bestAdapterCpu, a.cpuMs);
    events = a.events;
    gc();
    const d = decoderRound(turns);
    if (d.frames !== frames) throw new Error(`bench: decoder saw ${d.frames} of ${frames} frames`);
    bestDecoder = Math.min(bestDecoder, d.ms);
    bestDecoderCpu = Math.min(bestDecoderCpu, d.cpuMs);
  }
  const adapterFps = frames / (bestAdapter / 1000);
  const decoderFps = frames / (bestDecoder / 1000);
  return {
    release: transcriptRelease().version,
    turns: turnCount,
    framesPerTurn: frames / turnCount,
    mb: bytes / 1048576,
    decoderFps,
    adapterFps,
    ratio: adapterFps / decoderFps,
    decoderCpuFps: frames / (bestDecoderCpu / 1000),
    adapterCpuFps: frames / (bestAdapterCpu / 1000),
    cpuRatio: bestDecoderCpu / bestAdapterCpu,
    events,
  };
}

export interface HeapResult {
  readonly sessions: number;
  /** Heap growth per open idle session, bench transport included. */
  readonly perSessionBytes: number;
  /** Heap growth per bench transport alone (decoder, frame queue, peer state), for reference. */
  readonly perTransportBytes: number;
  /** Heap left per session after every session was disposed and dropped. */
  readonly afterDisposeBytes: number;
}

const heapNow = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

/** Opens `count` idle sessions on replay transports and weighs the heap. */
export async function heapPerIdleSession(count = 1000): Promise<HeapResult> {
  const rec = recordedSession();
  const provider = createCodexProvider({ transport: () => replayTransport({ session: rec }) });
  const open = async (): Promise<ProviderSession> =>
    provider.createSession({
      options: {},
      workspace: { root: BENCH_WORKSPACE, ownership: 'borrowed' },
      sink: countingSink(),
    });
  // warm every code path once so compiled code is not counted
  await (await open()).dispose();

  const transportsOnly: unknown[] = [];
  const base0 = heapNow();
  for (let i = 0; i < count; i++) transportsOnly.push(replayTransport({ session: rec }));
  const perTransportBytes = (heapNow() - base0) / count;
  transportsOnly.length = 0;

  const sessions: ProviderSession[] = [];
  const base = heapNow();
  for (let i = 0; i < count; i += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, count - i) }, open));
    sessions.push(...batch);
  }
  const perSessionBytes = (heapNow() - base) / count;
  for (const s of sessions) await s.dispose();
  sessions.length = 0;
  const afterDisposeBytes = (heapNow() - base) / count;
  return { sessions: count, perSessionBytes, perTransportBytes, afterDisposeBytes };
}
