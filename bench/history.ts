/**
 * Reading a long thread's past (real binary, scripted model): a persisted thread of N turns
 * (default 1,000, each answer ~1 KB) is built once; then, each in a fresh app-server on the
 * same CODEX_HOME, three contestants:
 * - `history`: the adapter's `resumeSession` (codex `thread/resume` with `excludeTurns: true`)
 *   and every turn through `session.history({ limit: 100 })`, page by page;
 * - `resume, excludeTurns`: the adapter's `resumeSession` alone (the floor history adds to);
 * - `resume, full turns`: a raw client's `thread/resume` without `excludeTurns` (what a host
 *   did to see the past before `history`): the whole thread in one reply.
 * Measured: codex's RSS after, the reply bytes the host received, the host heap growth (after a
 * GC, with the replies still referenced as a host holding them would), and the time.
 */
import { readFileSync } from 'node:fs';
import type { HistoryPage } from '@relvo-labs/agent-provider';
import { createCodexProvider, type CodexProviderOptions } from '../src/index.js';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  requireCodexBinary,
  ScriptedModelServer,
  textStep,
} from '../src/testing/index.js';
import { RawClient } from './support/raw-client.js';

export interface HistoryRow {
  readonly contestant: string;
  readonly turns: number;
  readonly codexRssMb: number;
  readonly replyKb: number;
  readonly hostHeapMb: number;
  readonly ms: number;
}

const gc = (): void => {
  (globalThis as { gc?: () => void }).gc?.();
};
const heapMb = (): number => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};
function rssMbOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb === undefined ? Number.NaN : Number(kb) / 1024;
}

export async function historyBench(
  turns: number,
): Promise<{ buildMs: number; rows: HistoryRow[] }> {
  const binary = requireCodexBinary({ kind: 'native' });
  const server = await ScriptedModelServer.start();
  const iso = createIsolatedCodexHome('relvo-bench-history-');
  const options: CodexProviderOptions = {
    executable: binary.path,
    extraArgs: [...codexConfigArgs({ baseUrl: server.baseUrl })],
    env: iso.env({ ...process.env }),
    persistence: 'thread',
    requestTimeoutMs: 600_000,
    stallTimeoutMs: null,
  };
  const init = () => ({
    options: {},
    workspace: { root: iso.workspace, ownership: 'borrowed' as const },
    sink: { emit: () => undefined },
  });
  try {
    const provider = createCodexProvider(options);
    const built = performance.now();
    const source = await provider.createSession(init());
    for (let i = 1; i <= turns; i += 1) {
      server.enqueue(textStep([`answer ${String(i)} `, 'x'.repeat(1000)]));
      const run = await source.startRun({
        input: { parts: [{ type: 'text', text: `question ${String(i)}` }] },
        sink: { emit: () => undefined },
        runRef: `b${String(i)}`,
      });
      await run.completion;
    }
    const record = await source.exportRecoveryRecord!();
    await source.dispose();
    const buildMs = performance.now() - built;
    const rows: HistoryRow[] = [];

    // history: resume (excludeTurns) and every page
    {
      const before = heapMb();
      const t0 = performance.now();
      const session = await provider.resumeSession!(record, init());
      const pages: HistoryPage[] = [];
      let cursor: string | undefined;
      let listed = 0;
      let bytes = 0;
      do {
        const page = await session.history!({ limit: 100, ...(cursor ? { cursor } : {}) });
        listed += page.turns.length;
        bytes += JSON.stringify(page).length;
        cursor = page.nextCursor;
        // a host rendering page by page keeps only the page it shows
        pages.splice(0, pages.length, page);
      } while (cursor !== undefined);
      const ms = performance.now() - t0;
      const usage = await session.resourceUsage();
      rows.push({
        contestant: 'history (resume excludeTurns + every page of 100)',
        turns: listed,
        codexRssMb: (usage?.rssBytes ?? Number.NaN) / 2 ** 20,
        replyKb: bytes / 1024,
        hostHeapMb: heapMb() - before,
        ms,
      });
      await session.dispose();
    }

    // the adapter's resume alone
    {
      const before = heapMb();
      const t0 = performance.now();
      const session = await provider.resumeSession!(record, init());
      const ms = performance.now() - t0;
      const usage = await session.resourceUsage();
      rows.push({
        contestant: 'resume, excludeTurns (the adapter today)',
        turns: 0,
        codexRssMb: (usage?.rssBytes ?? Number.NaN) / 2 ** 20,
        replyKb: Number.NaN,
        hostHeapMb: heapMb() - before,
        ms,
      });
      await session.dispose();
    }

    // a raw client's full resume
    {
      const threadId = (record.opaque as { threadId: string }).threadId;
      const raw = new RawClient(
        binary.path,
        options.extraArgs ?? [],
        options.env ?? {},
        iso.workspace,
      );
      try {
        await raw.request('initialize', {
          clientInfo: { name: 'relvo_bench', title: 'bench', version: '0.0.0' },
          capabilities: null,
        });
        raw.notify('initialized');
        const before = heapMb();
        const t0 = performance.now();
        const reply = await raw.request('thread/resume', { threadId, cwd: iso.workspace });
        const ms = performance.now() - t0;
        const thread = (reply.result as { thread?: { turns?: unknown[] } } | undefined)?.thread;
        rows.push({
          contestant: 'resume, full turns (no excludeTurns)',
          turns: thread?.turns?.length ?? 0,
          codexRssMb: rssMbOf(raw.pid),
          replyKb: JSON.stringify(reply).length / 1024,
          hostHeapMb: heapMb() - before,
          ms,
        });
        // held until measured, as a host holding the reply would
        if (thread === undefined) throw new Error('thread/resume answered without a thread');
      } finally {
        await raw.close();
      }
    }
    return { buildMs, rows };
  } finally {
    await server.close();
    iso.dispose();
  }
}
