/**
 * Density on the real binary: N sessions opened at once through the adapter, each completing a
 * scripted turn; wall time, RSS and PSS per app-server process group while all are idle, and
 * what is left once every session is disposed.
 */
import { randomUUID } from 'node:crypto';
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

export const BENCH_MARKER_VAR = 'RELVO_BENCH_MARKER';

export interface DensityResult {
  readonly n: number;
  readonly completed: number;
  readonly failed: readonly string[];
  /** First createSession → last turn completed. */
  readonly wallMs: number;
  readonly disposeWallMs: number;
  readonly groups: number;
  readonly medianGroupRssMb: number;
  readonly medianGroupPssMb: number;
  readonly totalPssMb: number;
  /** Marked processes outside any app-server group while idle (commands, snapshots). */
  readonly outsideGroups: number;
  /** Marked processes alive right after every dispose() resolved. */
  readonly leftAfterDispose: number;
  readonly leftComms: readonly string[];
}

export async function density(
  n: number,
  options: { env?: Record<string, string> } = {},
): Promise<DensityResult> {
  const binary = requireCodexBinary({ kind: 'native' });
  const marker = randomUUID();
  const iso = createIsolatedCodexHome('relvo-density-');
  const server = await ScriptedModelServer.start();
  try {
    for (let i = 0; i < n; i++)
      server.enqueue(textStep(['Hello', ' world'], { usage: scriptedUsage(100, 2, 0, 0) }));
    const provider = createCodexProvider({
      executable: binary.path,
      extraArgs: codexConfigArgs({ baseUrl: server.baseUrl }),
      env: iso.env({ ...process.env, ...options.env }, { [BENCH_MARKER_VAR]: marker }),
      // N handshakes at once on two cores take a while
      requestTimeoutMs: 300_000,
    });
    // codex initialises its sqlite state on first start; N first starts at once on a fresh
    // CODEX_HOME race on it and most exit 1 ("failed to initialize sqlite state runtime")
    await (
      await provider.createSession({
        options: {},
        workspace: { root: iso.workspace, ownership: 'borrowed' },
        sink: { emit: () => undefined },
      })
    ).dispose();
    const t0 = performance.now();
    const outcomes = await Promise.allSettled(
      Array.from({ length: n }, async (_, i) => {
        const session = await provider.createSession({
          options: {},
          workspace: { root: iso.workspace, ownership: 'borrowed' },
          sink: { emit: () => undefined },
        });
        try {
          const run = await session.startRun({
            input: { parts: [{ type: 'text', text: `hello ${i}` }] },
            sink: { emit: () => undefined },
            runRef: `d${i}`,
          });
          const end = await run.completion;
          return { session, outcome: end.outcome };
        } catch (error) {
          await session.dispose();
          throw error;
        }
      }),
    );
    const wallMs = performance.now() - t0;
    const procs = markedProcesses(BENCH_MARKER_VAR, marker);
    const { groups, outside } = byGroup(procs);
    const sessions = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.session] : []));
    const failed = outcomes.flatMap((o) =>
      o.status === 'rejected'
        ? [describeFailure(o.reason)]
        : o.value.outcome === 'succeeded'
          ? []
          : [o.value.outcome],
    );
    const d0 = performance.now();
    await Promise.allSettled(sessions.map((s) => s.dispose()));
    const disposeWallMs = performance.now() - d0;
    const left = markedProcesses(BENCH_MARKER_VAR, marker);
    for (const p of left) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    return {
      n,
      completed: outcomes.filter((o) => o.status === 'fulfilled' && o.value.outcome === 'succeeded')
        .length,
      failed,
      wallMs,
      disposeWallMs,
      groups: groups.length,
      medianGroupRssMb: median(groups.map((g) => g.rssKb)) / 1024,
      medianGroupPssMb: median(groups.map((g) => g.pssKb)) / 1024,
      totalPssMb: procs.reduce((s, p) => s + p.pssKb, 0) / 1024,
      outsideGroups: outside.length,
      leftAfterDispose: left.length,
      leftComms: [...new Set(left.map((p) => p.comm))],
    };
  } finally {
    await server.close();
    iso.dispose();
  }
}

function describeFailure(reason: unknown): string {
  const r = reason as { error?: { code?: string; providerCode?: string }; message?: string };
  if (r.error !== undefined) return `${r.error.code ?? '?'}/${r.error.providerCode ?? '-'}`;
  return r.message ?? 'unknown';
}
