/**
 * What one host holds: N idle runtime sessions on the real binary, each with its codex app-server,
 * through `createAgentRuntime` (SQLite log, persistence 'thread', as `relvo-codex run` keeps them).
 * Each session completes one scripted turn and then stays open and idle. Measured: PSS of every
 * codex process (what they cost together, shared pages counted once), and what the runtime
 * process grew by (heap after a full GC, and RSS), per session; then how many such sessions fit
 * in 24 GiB. Run with --expose-gc (`npm run bench`).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  createAgentRuntime,
  openSqliteEventStore,
  type RuntimeSession,
} from '@relvo-labs/agent-runtime';
import { createCodexProvider } from '../src/index.js';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  requireCodexBinary,
  ScriptedModelServer,
  scriptedUsage,
  textStep,
} from '../src/testing/index.js';
import { byGroup, markedProcesses } from './support/proc.js';
import { median } from './support/stats.js';

const MARK = 'RELVO_BENCH_HOST_MARKER';
const GIB24_MB = 24 * 1024;
/** Opened this many at a time: N first starts at once on two cores time out. */
const BATCH = 8;

export interface HostDensityResult {
  readonly n: number;
  readonly completed: number;
  /** Sum of the PSS of every codex process, divided by N. */
  readonly codexPssMbPerSession: number;
  /** Median RSS of one app-server group (shared pages counted in full). */
  readonly codexRssMbPerGroup: number;
  /** Growth of the runtime's heap (after GC), divided by N. */
  readonly runtimeHeapKbPerSession: number;
  /** Growth of the runtime process's RSS, divided by N. */
  readonly runtimeRssMbPerSession: number;
  /** The runtime process's RSS before the first session. */
  readonly runtimeBaseRssMb: number;
  readonly mbPerSession: number;
  readonly sessionsPer24GiB: number;
  /** Marked processes alive after every session closed and the runtime shut down. */
  readonly left: number;
}

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error('host density: run node with --expose-gc');
  collect();
  collect();
}

export async function hostDensity(n: number): Promise<HostDensityResult> {
  const binary = requireCodexBinary({ kind: 'native' });
  const marker = randomUUID();
  const iso = createIsolatedCodexHome('relvo-host-density-');
  const server = await ScriptedModelServer.start();
  const runtime = await createAgentRuntime({
    providers: { codex: createCodexProvider },
    config: {
      defaultProfile: 'codex',
      profiles: {
        codex: {
          provider: 'codex',
          providerOptions: {
            executable: binary.path,
            extraArgs: codexConfigArgs({ baseUrl: server.baseUrl }),
            env: iso.env(process.env, { [MARK]: marker }),
            persistence: 'thread',
            requestTimeoutMs: 300_000,
          },
        },
      },
    },
    store: openSqliteEventStore({ path: join(iso.root, 'events.sqlite') }),
  });
  try {
    const turn = async (): Promise<[RuntimeSession, boolean]> => {
      const session = await runtime.openSession({ workspace: iso.workspace });
      const handle = await session.submitTurn({ input: 'hello' });
      const done = await handle.done;
      return [session, done.termination.outcome === 'succeeded'];
    };
    for (let i = 0; i <= n; i++)
      server.enqueue(textStep(['Hello', ' world'], { usage: scriptedUsage(100, 2, 0, 0) }));
    // codex initialises its state on the first start in a CODEX_HOME; a warm-up session does it
    const [warm] = await turn();
    await warm.close();
    gc();
    const before = process.memoryUsage();
    const sessions: RuntimeSession[] = [];
    let completed = 0;
    for (let i = 0; i < n; i += BATCH) {
      const batch = await Promise.all(Array.from({ length: Math.min(BATCH, n - i) }, turn));
      for (const [session, ok] of batch) {
        sessions.push(session);
        if (ok) completed += 1;
      }
    }
    // idle: let the last writes and codex's own start-up work settle
    await new Promise((r) => setTimeout(r, 2_000));
    gc();
    const after = process.memoryUsage();
    const procs = markedProcesses(MARK, marker);
    const { groups } = byGroup(procs);
    const codexPssMb = procs.reduce((s, p) => s + p.pssKb, 0) / 1024 / n;
    const runtimeRssMb = (after.rss - before.rss) / 1024 / 1024 / n;
    await Promise.allSettled(sessions.map((s) => s.close()));
    const mbPerSession = codexPssMb + Math.max(0, runtimeRssMb);
    const baseMb = before.rss / 1024 / 1024;
    return {
      n,
      completed,
      codexPssMbPerSession: codexPssMb,
      codexRssMbPerGroup: median(groups.map((g) => g.rssKb)) / 1024,
      runtimeHeapKbPerSession: (after.heapUsed - before.heapUsed) / 1024 / n,
      runtimeRssMbPerSession: runtimeRssMb,
      runtimeBaseRssMb: baseMb,
      mbPerSession,
      sessionsPer24GiB: Math.floor((GIB24_MB - baseMb) / mbPerSession),
      left: await leftAfter(runtime, marker),
    };
  } finally {
    await runtime.shutdown().catch(() => undefined);
    await server.close();
    iso.dispose();
  }
}

async function leftAfter(runtime: { shutdown(): Promise<void> }, marker: string): Promise<number> {
  await runtime.shutdown();
  const left = markedProcesses(MARK, marker);
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  return left.length;
}
