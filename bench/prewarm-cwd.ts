/**
 * What a warm codex process would save a session in another workspace than the prewarm one
 * (ADR-0062), on raw clients so only codex's own cost is measured: a process already started
 * and initialized (its first thread idle, as a warm session's is) starts a thread with the other
 * `cwd` and answers its first `turn/start`; against a cold process doing the same from spawn.
 */
import type { ScriptedModelServer } from '../src/testing/index.js';
import { textStep } from '../src/testing/index.js';
import { RawClient } from './support/raw-client.js';

export interface RawOptions {
  readonly executable: string;
  readonly extraArgs: readonly string[];
  readonly env: Record<string, string>;
}

/** Idle time between a warm process's start and its use, as a warm session has idled. */
const IDLE_MS = 100;

/** Resolves once `turn/start` is answered, with the turn's completion still to come. */
async function firstTurn(
  raw: RawClient,
  server: ScriptedModelServer,
  threadId: string,
): Promise<{ completed: Promise<unknown> }> {
  server.enqueue(textStep(['ok']));
  const completed = raw.next((f) => f['method'] === 'turn/completed');
  await raw.request('turn/start', {
    threadId,
    input: [{ type: 'text', text: 'hi', text_elements: [] }],
  });
  return { completed };
}

async function startThread(raw: RawClient, cwd: string): Promise<string> {
  const started = await raw.request('thread/start', {
    cwd,
    approvalPolicy: 'never',
    sandbox: 'read-only',
    ephemeral: true,
  });
  const result = started['result'] as { thread: { id: string } };
  return result.thread.id;
}

/** A warm process spawned in `processDir`: thread/start in `workspace` → first turn/start answered. */
export async function warmOtherCwdTrial(
  o: RawOptions,
  server: ScriptedModelServer,
  processDir: string,
  workspace: string,
): Promise<number> {
  const raw = new RawClient(o.executable, o.extraArgs, o.env, processDir);
  try {
    await raw.handshake(processDir, 'relvo-bench', '0.0.0');
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const t0 = performance.now();
    const { completed } = await firstTurn(raw, server, await startThread(raw, workspace));
    const ms = performance.now() - t0;
    await completed;
    return ms;
  } finally {
    await raw.close();
  }
}

/** A cold process in `workspace`: spawn, initialize, thread/start → first turn/start answered. */
export async function coldRawTrial(
  o: RawOptions,
  server: ScriptedModelServer,
  workspace: string,
): Promise<number> {
  const t0 = performance.now();
  const raw = new RawClient(o.executable, o.extraArgs, o.env, workspace);
  try {
    await raw.request('initialize', {
      clientInfo: { name: 'relvo-bench', title: 'Relvo Agent Runtime', version: '0.0.0' },
      capabilities: null,
    });
    raw.notify('initialized');
    const { completed } = await firstTurn(raw, server, await startThread(raw, workspace));
    const ms = performance.now() - t0;
    await completed;
    return ms;
  } finally {
    await raw.close();
  }
}
