/**
 * Session open through the runtime on the real binary, with and without `prewarm` (ADR-0037),
 * paired and interleaved (the order flips every pair): from `openSession` to the first turn
 * admitted (`submitTurn` resolved: the provider session is open and the run started). Each
 * warm trial starts once the warm set is full again, so it measures a take, not a refill. A third
 * contestant is the floor no prewarm can go under: a raw client's `turn/start` on a thread codex
 * has already started, i.e. codex's own answer to the first turn.
 */
import { createAgentRuntime, type AgentRuntime } from '@relvo-labs/agent-runtime';
import { createCodexProvider, type CodexProviderOptions } from '../src/index.js';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  requireCodexBinary,
  ScriptedModelServer,
  textStep,
} from '../src/testing/index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coldRawTrial, warmOtherCwdTrial } from './prewarm-cwd.js';
import { RawClient } from './support/raw-client.js';
import { median, quantile } from './support/stats.js';

export interface PrewarmResult {
  readonly pairs: number;
  readonly coldMs: readonly number[];
  readonly warmMs: readonly number[];
  /** A raw client's first `turn/start` → its answer, on a thread already started. */
  readonly floorMs: readonly number[];
  /** Raw: a warm process's thread/start in another workspace → its first turn/start answered. */
  readonly otherCwdMs: readonly number[];
  /** Raw: spawn, initialize, thread/start → first turn/start answered. */
  readonly rawColdMs: readonly number[];
  /** `openSession` alone (the provider session is opened at the first turn). */
  readonly coldOpenMs: readonly number[];
  readonly warmOpenMs: readonly number[];
  /** Warm trials that found no warm session (0 unless a refill outran the wait). */
  readonly missed: number;
}

interface Counted {
  readonly runtime: AgentRuntime;
  /** createSession calls started and not yet settled. */
  pending(): number;
  created(): number;
}

/** The profile's providerOptions, as JSON. */
interface BenchOptions {
  readonly executable: string;
  readonly extraArgs: string[];
  readonly env: Record<string, string>;
  readonly requestTimeoutMs: number;
}

async function counted(
  options: BenchOptions,
  workspace: string,
  prewarm: boolean,
): Promise<Counted> {
  let pending = 0;
  let created = 0;
  const codex = (opts: CodexProviderOptions) => {
    const provider = createCodexProvider(opts);
    return {
      ...provider,
      describe: () => provider.describe(),
      createSession: async (init: Parameters<typeof provider.createSession>[0]) => {
        pending += 1;
        try {
          const session = await provider.createSession(init);
          created += 1;
          return session;
        } finally {
          pending -= 1;
        }
      },
    };
  };
  const runtime = await createAgentRuntime({
    providers: { codex },
    config: {
      defaultProfile: 'p',
      profiles: {
        p: {
          provider: 'codex',
          providerOptions: {
            ...options,
            extraArgs: [...options.extraArgs],
            env: { ...options.env },
          },
          ...(prewarm ? { prewarm: { count: 1, workspace } } : {}),
        },
      },
    },
  });
  return { runtime, pending: () => pending, created: () => created };
}

async function settled(probe: () => boolean, label: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`bench: ${label} did not happen within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function trial(
  c: Counted,
  server: ScriptedModelServer,
  workspace: string,
  warm: boolean,
): Promise<{ ms: number; openMs: number; missed: boolean }> {
  // a warm trial begins with the warm set full; a cold one with nothing starting
  await settled(() => c.pending() === 0 && (!warm || c.created() > 0), 'the warm set to fill');
  const before = c.created();
  server.enqueue(textStep(['ok']));
  const t0 = performance.now();
  const session = await c.runtime.openSession({ workspace });
  const openMs = performance.now() - t0;
  const turn = await session.submitTurn({ input: 'hi' });
  const ms = performance.now() - t0;
  // a session created meanwhile was the pool's own cold open (a replacement takes far longer)
  const missed = warm && c.created() > before;
  const end = await turn.done;
  if (end.turnState !== 'completed') throw new Error(`bench: turn ended ${end.turnState}`);
  await session.close();
  return { ms, openMs, missed };
}

/** Idle time between a raw thread's start and its first turn, as a warm session has idled. */
const FLOOR_IDLE_MS = 100;

async function floorTrial(
  executable: string,
  options: BenchOptions,
  server: ScriptedModelServer,
  workspace: string,
): Promise<number> {
  const raw = new RawClient(executable, options.extraArgs, options.env, workspace);
  try {
    const threadId = await raw.handshake(workspace, 'relvo-bench', '0.0.0');
    await new Promise((resolve) => setTimeout(resolve, FLOOR_IDLE_MS));
    server.enqueue(textStep(['ok']));
    const completed = raw.next((f) => f['method'] === 'turn/completed');
    const t0 = performance.now();
    await raw.request('turn/start', {
      threadId,
      input: [{ type: 'text', text: 'hi', text_elements: [] }],
    });
    const ms = performance.now() - t0;
    await completed;
    return ms;
  } finally {
    await raw.close();
  }
}

export async function prewarmOpen(options: { pairs?: number } = {}): Promise<PrewarmResult> {
  const pairs = options.pairs ?? 20;
  const binary = requireCodexBinary({ kind: 'native' });
  const server = await ScriptedModelServer.start();
  const iso = createIsolatedCodexHome('relvo-bench-');
  const providerOptions: BenchOptions = {
    executable: binary.path,
    extraArgs: [...codexConfigArgs({ baseUrl: server.baseUrl })],
    env: iso.env({ ...process.env }),
    requestTimeoutMs: 30_000,
  };
  const raw = {
    executable: binary.path,
    extraArgs: providerOptions.extraArgs,
    env: providerOptions.env,
  };
  const cold = await counted(providerOptions, iso.workspace, false);
  const warm = await counted(providerOptions, iso.workspace, true);
  const coldMs: number[] = [];
  const warmMs: number[] = [];
  const floorMs: number[] = [];
  const otherCwdMs: number[] = [];
  const rawColdMs: number[] = [];
  // where a warm process for another workspace would have been spawned: the prewarm workspace's
  // stand-in, never the session's own
  const processDir = mkdtempSync(join(tmpdir(), 'relvo-bench-process-'));
  const coldOpenMs: number[] = [];
  const warmOpenMs: number[] = [];
  let missed = 0;
  const one = async (isWarm: boolean): Promise<void> => {
    const r = await trial(isWarm ? warm : cold, server, iso.workspace, isWarm);
    (isWarm ? warmMs : coldMs).push(r.ms);
    (isWarm ? warmOpenMs : coldOpenMs).push(r.openMs);
    if (r.missed) missed += 1;
  };
  try {
    // one unmeasured pair warms the page cache and both paths
    await one(false);
    await one(true);
    await floorTrial(binary.path, providerOptions, server, iso.workspace);
    await warmOtherCwdTrial(raw, server, processDir, iso.workspace);
    await coldRawTrial(raw, server, iso.workspace);
    for (const list of [coldMs, warmMs, coldOpenMs, warmOpenMs]) list.length = 0;
    for (let i = 0; i < pairs; i += 1) {
      await one(i % 2 === 0);
      await one(i % 2 !== 0);
      floorMs.push(await floorTrial(binary.path, providerOptions, server, iso.workspace));
      otherCwdMs.push(await warmOtherCwdTrial(raw, server, processDir, iso.workspace));
      rawColdMs.push(await coldRawTrial(raw, server, iso.workspace));
    }
  } finally {
    await cold.runtime.shutdown().catch(() => undefined);
    await warm.runtime.shutdown().catch(() => undefined);
    await server.close();
    iso.dispose();
    rmSync(processDir, { recursive: true, force: true });
  }
  return {
    pairs,
    coldMs,
    warmMs,
    floorMs,
    otherCwdMs,
    rawColdMs,
    coldOpenMs,
    warmOpenMs,
    missed,
  };
}

export function prewarmRows(r: PrewarmResult) {
  const row = (name: string, values: readonly number[], opens: readonly number[] | undefined) => ({
    path: name,
    'median ms': median(values).toFixed(2),
    'p25…p75 ms': `${quantile(values, 0.25).toFixed(2)} … ${quantile(values, 0.75).toFixed(2)}`,
    'vs cold': `${(median(values) / median(r.coldMs)).toFixed(3)}×`,
    'vs codex floor': `${(median(values) / median(r.floorMs)).toFixed(2)}×`,
    'of which openSession, median ms': opens === undefined ? '-' : median(opens).toFixed(2),
  });
  return [
    row('cold (no prewarm)', r.coldMs, r.coldOpenMs),
    row('prewarm count 1', r.warmMs, r.warmOpenMs),
    row('codex floor: raw turn/start on a started thread', r.floorMs, undefined),
    row('raw, warm process: thread/start in another cwd + turn/start', r.otherCwdMs, undefined),
    row(
      'raw, cold process: spawn + initialize + thread/start + turn/start',
      r.rawColdMs,
      undefined,
    ),
  ];
}
