/**
 * The adapter against a minimal raw client on the same real binary, paired and interleaved
 * (the order flips every pair): session open (spawn → thread ready), turn/start → first delta
 * with the scripted model, and disposal of an idle session (raw: close stdin, wait for exit).
 */
import type { ProviderEventInput } from '@relvo-labs/agent-provider';
import { createCodexProvider, type CodexProviderSession } from '../src/index.js';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  requireCodexBinary,
  ScriptedModelServer,
  textStep,
  type IsolatedCodexHome,
} from '../src/testing/index.js';
import { CODEX_ADAPTER_VERSION, CODEX_DEFAULT_CLIENT_NAME } from '../src/constants.js';
import { commandEnvironmentArgs } from '../src/transport/environment.js';
import { createLinuxProcProbe, snapshotProcs } from '../src/transport/proc-probe.js';
import { RawClient } from './support/raw-client.js';
import { median, quantile } from './support/stats.js';

interface Sample {
  readonly openMs: number;
  readonly firstDeltaMs: number;
  readonly disposeMs: number;
}

export interface OverheadResult {
  readonly pairs: number;
  readonly version: string;
  readonly adapter: readonly Sample[];
  readonly raw: readonly Sample[];
}

interface Context {
  readonly executable: string;
  readonly server: ScriptedModelServer;
  readonly env: (iso: IsolatedCodexHome) => Record<string, string>;
}

const DELTAS = ['Hello', ' world'];

async function adapterTrial(ctx: Context): Promise<Sample> {
  const iso = createIsolatedCodexHome('relvo-bench-');
  try {
    const provider = createCodexProvider({
      executable: ctx.executable,
      extraArgs: codexConfigArgs({ baseUrl: ctx.server.baseUrl }),
      env: ctx.env(iso),
      requestTimeoutMs: 30_000,
    });
    let t0 = performance.now();
    const session: CodexProviderSession = await provider.createSession({
      options: {},
      workspace: { root: iso.workspace, ownership: 'borrowed' },
      sink: { emit: () => undefined },
    });
    const openMs = performance.now() - t0;
    ctx.server.enqueue(textStep(DELTAS));
    let firstDelta = 0;
    const sink = {
      emit(e: ProviderEventInput) {
        if (firstDelta === 0 && e.payload.type === 'run.message_delta')
          firstDelta = performance.now();
      },
    };
    t0 = performance.now();
    const run = await session.startRun({
      input: { parts: [{ type: 'text', text: 'hi' }] },
      sink,
      runRef: 'bench',
    });
    const end = await run.completion;
    if (end.outcome !== 'succeeded' || firstDelta === 0)
      throw new Error(`bench: adapter turn ended ${end.outcome}`);
    const firstDeltaMs = firstDelta - t0;
    t0 = performance.now();
    await session.dispose();
    const disposeMs = performance.now() - t0;
    return { openMs, firstDeltaMs, disposeMs };
  } finally {
    iso.dispose();
  }
}

async function rawTrial(ctx: Context): Promise<Sample> {
  const iso = createIsolatedCodexHome('relvo-bench-');
  let client: RawClient | undefined;
  try {
    let t0 = performance.now();
    client = new RawClient(
      ctx.executable,
      // the same codex configuration the adapter starts with by default (ADR-0013's filtered
      // command environment turns the shell snapshot off): without it the raw client's codex
      // builds a snapshot at turn start and the first-delta comparison measures that, not us
      [...codexConfigArgs({ baseUrl: ctx.server.baseUrl }), ...commandEnvironmentArgs('filtered')],
      ctx.env(iso),
      iso.workspace,
    );
    const threadId = await client.handshake(
      iso.workspace,
      CODEX_DEFAULT_CLIENT_NAME,
      CODEX_ADAPTER_VERSION,
    );
    const openMs = performance.now() - t0;
    ctx.server.enqueue(textStep(DELTAS));
    const delta = client.next((f) => f.method === 'item/agentMessage/delta');
    const completed = client.next((f) => f.method === 'turn/completed');
    t0 = performance.now();
    void client.request('turn/start', { threadId, input: [{ type: 'text', text: 'hi' }] });
    await delta;
    const firstDeltaMs = performance.now() - t0;
    await completed;
    t0 = performance.now();
    await client.close();
    const disposeMs = performance.now() - t0;
    client = undefined;
    return { openMs, firstDeltaMs, disposeMs };
  } finally {
    client?.kill();
    iso.dispose();
  }
}

export async function overhead(
  options: { pairs?: number; env?: Record<string, string> } = {},
): Promise<OverheadResult> {
  const pairs = options.pairs ?? 20;
  const binary = requireCodexBinary({ kind: 'native' });
  const server = await ScriptedModelServer.start();
  const base: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  const ctx: Context = { executable: binary.path, server, env: (iso) => iso.env(base) };
  const adapter: Sample[] = [];
  const raw: Sample[] = [];
  try {
    // one unmeasured pair warms the page cache and both code paths
    await adapterTrial(ctx);
    await rawTrial(ctx);
    for (let i = 0; i < pairs; i++) {
      if (i % 2 === 0) {
        adapter.push(await adapterTrial(ctx));
        raw.push(await rawTrial(ctx));
      } else {
        raw.push(await rawTrial(ctx));
        adapter.push(await adapterTrial(ctx));
      }
    }
  } finally {
    await server.close();
  }
  return { pairs, version: binary.version, adapter, raw };
}

export interface OverheadRow {
  readonly measure: string;
  readonly rawMedianMs: number;
  readonly adapterMedianMs: number;
  /** Median over pairs of (adapter − raw). */
  readonly pairedDiffMs: number;
  readonly pairedDiffP25: number;
  readonly pairedDiffP75: number;
  /** adapter median ÷ raw median. */
  readonly ratio: number;
}

export function summarise(result: OverheadResult): OverheadRow[] {
  const keys = [
    ['session open (spawn → thread ready)', 'openMs'],
    ['turn/start → first delta', 'firstDeltaMs'],
    ['dispose idle session (raw: stdin EOF → exit)', 'disposeMs'],
  ] as const;
  return keys.map(([measure, key]) => {
    const a = result.adapter.map((s) => s[key]);
    const r = result.raw.map((s) => s[key]);
    const diffs = a.map((v, i) => v - r[i]!);
    return {
      measure,
      rawMedianMs: median(r),
      adapterMedianMs: median(a),
      pairedDiffMs: median(diffs),
      pairedDiffP25: quantile(diffs, 0.25),
      pairedDiffP75: quantile(diffs, 0.75),
      ratio: median(a) / median(r),
    };
  });
}

/**
 * What the adapter's dispose does that the raw client does not: prove no owned process is left
 * by passes over /proc (a listing and one `stat` per process). An idle session's teardown takes
 * two (the group scan at the leader's reap instant and the first sweep pass), three when a
 * process vanished mid-pass; the cost grows with the number of processes on the machine.
 */
export function procPassCost(rounds = 200): { processes: number; medianMs: number } {
  const probe = createLinuxProcProbe();
  const times: number[] = [];
  let processes = 0;
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const snapshot = snapshotProcs(probe);
    times.push(performance.now() - t0);
    if (snapshot.kind === 'list') processes = snapshot.entries.length;
  }
  return { processes, medianMs: median(times) };
}
