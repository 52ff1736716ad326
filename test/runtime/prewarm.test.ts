/**
 * Prewarmed provider sessions on the REAL codex binary (ADR-0037): a runtime session takes an
 * app-server started and handshaken before it existed, on a thread of its own, in a process
 * group of its own, and nothing is left once the runtime shuts down.
 */
import { createAgentRuntime, type AgentRuntime } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import {
  createCodexProvider,
  type CodexProviderOptions,
  type CodexProviderSession,
} from '../../src/index.js';
import { textStep } from '../../src/testing/index.js';
import { useCleanups } from '../support/cleanups.js';
import { codexProviderJson, codexRuntime, realCodexParts } from '../support/codex-runtime.js';
import { processesWithEnv, waitForProcesses } from '../support/proc-scan.js';
import { until } from '../../packages/agent-runtime/test/support.js';

const cleanups = useCleanups();

async function threadOf(
  session: CodexProviderSession,
): Promise<{ thread: unknown; turn: unknown }> {
  const record = await session.exportRecoveryRecord!();
  const opaque = record.opaque as { threadId?: unknown; lastTurnId?: unknown };
  return { thread: opaque.threadId, turn: opaque.lastTurnId };
}

describe('prewarmed sessions on the real binary', () => {
  it('a session opened from the warm set is a fresh thread in its own process group', async () => {
    // every provider session the runtime creates, in order
    const created: CodexProviderSession[] = [];
    const codex = (options: CodexProviderOptions) => {
      const provider = createCodexProvider(options);
      return {
        ...provider,
        describe: () => provider.describe(),
        createSession: async (init: Parameters<typeof provider.createSession>[0]) => {
          const session = await provider.createSession(init);
          created.push(session);
          return session;
        },
      };
    };
    const { iso, server, runtime } = await codexRuntime(cleanups, {
      prefix: 'relvo-prewarm-',
      provider: codex,
      providerOptions: { persistence: 'thread' },
      profile: ({ iso }) => ({ prewarm: { count: 1, workspace: iso.workspace } }),
      runtime: { closeGraceMs: 10_000 },
    });
    // started and handshaken before any runtime session exists
    await until(() => created.length === 1, 'the warm app-server', 20_000);

    const leaders = () =>
      processesWithEnv(`CODEX_HOME=${iso.codexHome}`).filter(
        (p) => p.ppid === process.pid && p.cmdline.includes('app-server'),
      );
    const turns = [];
    for (const prompt of ['first', 'second']) {
      const session = await runtime.openSession({ workspace: iso.workspace });
      server.enqueue(textStep([prompt]));
      const turn = await session.submitTurn({ input: prompt });
      turns.push(await turn.done);
      // the replacement was started when the warm one was taken
      await until(() => created.length === turns.length + 1, 'the replacement', 20_000);
      // the session's app-server and the replacement: each the leader of a group of its own
      const live = leaders();
      expect(live).toHaveLength(2);
      expect(live.every((p) => p.pgid === p.pid && p.pgid !== process.pid)).toBe(true);
      expect(new Set(live.map((p) => p.pgid)).size).toBe(2);
      await session.close();
    }
    expect(turns.map((t) => t.turnState)).toEqual(['completed', 'completed']);
    // each runtime session ran on a session warmed before it, each on a thread of its own
    const [a, b] = [await threadOf(created[0]!), await threadOf(created[1]!)];
    expect(a.turn).toBeDefined();
    expect(b.turn).toBeDefined();
    expect(a.thread).not.toBe(b.thread);
    expect((await threadOf(created[2]!)).turn).toBeUndefined();

    // the two adopted app-servers were disposed with their sessions; the warm one is alive
    const [warm] = await waitForProcesses(leaders, 'the warm app-server');
    expect(leaders()).toHaveLength(1);
    expect(warm!.pgid).toBe(warm!.pid);
    expect(warm!.pgid).not.toBe(process.pid);

    await runtime.shutdown();
    expect(processesWithEnv(`CODEX_HOME=${iso.codexHome}`)).toEqual([]);
  });

  it('reports a warm app-server ready, and a profile whose codex cannot start by code and token only', async () => {
    const parts = await realCodexParts(cleanups, 'relvo-prewarm-');
    const { iso } = parts;
    const providerOptions = (executable: string) => codexProviderJson(parts, { executable });
    const missing = `${iso.home}/no-such-codex-binary`;
    const runtime: AgentRuntime = await createAgentRuntime({
      providers: { codex: createCodexProvider },
      config: {
        defaultProfile: 'warm',
        profiles: {
          warm: {
            provider: 'codex',
            providerOptions: providerOptions(parts.binary.path),
            prewarm: { count: 1, workspace: iso.workspace },
          },
          broken: {
            provider: 'codex',
            providerOptions: providerOptions(missing),
            prewarm: { count: 1, workspace: iso.workspace },
          },
        },
      },
    });
    cleanups.push(() => runtime.shutdown().catch(() => undefined));
    const settled = () => runtime.warmPool().profiles.every((p) => p.starting === 0);
    await until(settled, 'both warm starts settled', 20_000);
    const [warm, broken] = runtime.warmPool().profiles;
    expect(warm).toEqual({
      profile: 'warm',
      target: 1,
      warm: 1,
      starting: 0,
      failed: 0,
      lastError: null,
    });
    expect(broken).toMatchObject({ profile: 'broken', warm: 0, failed: 1 });
    expect(broken!.lastError).toMatchObject({
      code: 'provider_rejected',
      reason: 'provider_rejected',
    });
    // neither the path codex was looked for at nor any spawn error text
    expect(JSON.stringify(runtime.warmPool())).not.toContain(iso.home);
    expect(JSON.stringify(runtime.warmPool())).not.toMatch(/ENOENT|spawn/i);
    await runtime.shutdown();
    expect(processesWithEnv(`CODEX_HOME=${iso.codexHome}`)).toEqual([]);
  });
});
