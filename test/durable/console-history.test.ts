/**
 * The console shows a resumed thread's earlier turns (real codex, SQLite): a host process runs a
 * turn and is SIGKILLed; a runtime in this process resumes the session, and the console's
 * `GET /api/sessions/:id/history` reads the turn from before the resume out of codex's own
 * thread (`thread/turns/list` through `session.history`), in the shapes of a live turn.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  isRuntimeError,
  openSqliteEventStore,
  type AgentRuntime,
  type RuntimeSession,
} from '@relvo-labs/agent-runtime';
import { startConsole } from '@relvo-labs/agent-runtime/console';
import { describe, expect, it } from 'vitest';
import { textStep } from '../../src/testing/index.js';
import { onCleanup } from '../../packages/agent-runtime/test/support.js';
import { codexRuntime, realCodexParts } from '../support/codex-runtime.js';
import { testEnv } from '../support/processes.js';
import { Host, LEASE_MS } from './harness.js';

/** Bounded: resumes once the dead owner's lease has lapsed. */
async function resumeWhenFree(runtime: AgentRuntime, sessionId: string): Promise<RuntimeSession> {
  for (const deadline = Date.now() + LEASE_MS * 10; ;) {
    try {
      return await runtime.resumeSession(sessionId);
    } catch (error) {
      if (!isRuntimeError(error) || error.reason !== 'session_leased' || Date.now() > deadline)
        throw error;
      await sleep(100);
    }
  }
}

describe('the console and a resumed codex thread (SQLite)', () => {
  it("reads the turns from before the resume out of codex's thread", async () => {
    // undone last first, after the console
    const cleanups: (() => Promise<void> | void)[] = [];
    onCleanup(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });
    const { binary, iso, server } = await realCodexParts(cleanups, 'relvo-console-history-');
    const sqlite = join(iso.root, 'log.sqlite');
    const word = `KIWI-${String(Date.now())}`;
    server.enqueue(textStep(['Noted ', word, '.']));
    const owner = new Host(
      [
        JSON.stringify({
          mode: 'turn',
          prompt: `remember ${word}`,
          url: '',
          schema: '',
          sqlite,
          leaseMs: LEASE_MS,
          baseUrl: server.baseUrl,
          executable: binary.path,
          workspace: iso.workspace,
        }),
      ],
      iso.env(testEnv()),
      'console-history',
    );
    const sessionId = (await owner.line((l) => l.startsWith('SESSION '), 'the session')).slice(8);
    await owner.saw('run.finished', 'the first turn');
    owner.signal('SIGKILL');
    await owner.exited;

    // the same profile as the killed host's: persistence 'thread', so its thread resumes
    const { runtime } = await codexRuntime(cleanups, {
      prefix: 'unused',
      home: { iso, server },
      runtime: { store: openSqliteEventStore({ path: sqlite, leaseMs: LEASE_MS }) },
      providerOptions: {
        persistence: 'thread',
        sandboxMode: 'workspace-write',
        approvals: 'bridge',
      },
    });
    const session = await resumeWhenFree(runtime, sessionId);
    const served = await startConsole({ runtime, workspace: iso.workspace });
    onCleanup(() => served.close());

    const res = await fetch(new URL(`/api/sessions/${session.id}/history`, served.url), {
      headers: { authorization: `Bearer ${served.token}` },
    });
    expect(res.status).toBe(200);
    const page = (await res.json()) as {
      turns: {
        input?: { parts: { text?: string }[] };
        events: { payload: unknown }[];
        outcome: string;
      }[];
      nextCursor?: string;
    };
    expect(page.nextCursor).toBeUndefined();
    expect(page.turns).toHaveLength(1);
    const [turn] = page.turns;
    expect(turn?.outcome).toBe('succeeded');
    expect(turn?.input?.parts[0]?.text).toBe(`remember ${word}`);
    const text = (turn?.events ?? [])
      .map((e) => e.payload as { type?: string; text?: string })
      .filter((p) => p.type === 'run.message_delta')
      .map((p) => p.text)
      .join('');
    expect(text).toBe(`Noted ${word}.`);
    // a read: codex was asked nothing more
    expect(server.requests).toHaveLength(1);
  });
});
