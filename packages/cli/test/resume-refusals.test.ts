/** `run --resume`: each refusal is one line saying what to do, with the exit code to act on. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentError, ProviderRejection } from '@relvo-labs/agent-provider';
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  createMemoryEventStore,
  parseRuntimeConfig,
  RuntimeError,
  type AgentRuntime,
} from '@relvo-labs/agent-runtime';
import { CliExit, EXIT } from '../src/exit-codes.js';
import { resumeFromLog, withThreadPersistence } from '../src/host/resume.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function runtimeWithClosedSession(
  metadata?: Record<string, string>,
): Promise<{ runtime: AgentRuntime; id: string }> {
  const scripted = createScriptedProvider();
  const runtime = await createAgentRuntime({
    providers: { scripted: () => scripted.provider },
    config: { defaultProfile: 'a', profiles: { a: { provider: 'scripted' } } },
    store: createMemoryEventStore(),
  });
  cleanups.push(() => runtime.shutdown().catch(() => undefined));
  const workspace = mkdtempSync(join(tmpdir(), 'relvo-cli-resume-'));
  cleanups.push(() => {
    rmSync(workspace, { recursive: true, force: true });
  });
  const session = await runtime.openSession({ workspace, ...(metadata && { metadata }) });
  await session.close();
  return { runtime, id: session.id };
}

async function exitOf(work: Promise<unknown>): Promise<CliExit> {
  try {
    await work;
  } catch (error) {
    if (error instanceof CliExit) return error;
    throw error;
  }
  throw new Error('expected a CliExit');
}

describe('run --resume refusals', () => {
  it('a closed session is a usage error that says to start a new one', async () => {
    const { runtime, id } = await runtimeWithClosedSession();
    const exit = await exitOf(resumeFromLog(runtime, id.slice(0, 10), '/log'));
    expect(exit.code).toBe(EXIT.usage);
    expect(exit.message).toBe(
      `session ${id} cannot be resumed: it is closed, failed, or ran without a saved codex thread (with --ephemeral, or before sessions were resumable); start a new one with \`relvo-codex run\``,
    );
  });

  it('a profile this config lacks: names the profile and the config file it ran with, exit 2', async () => {
    const { runtime, id } = await runtimeWithClosedSession({ config: '/home/p/relvo.config.json' });
    const refusal = new RuntimeError('invalid_request', 'resume_provider_mismatch', 'x', {
      details: { profile: 'mine' },
    });
    const stub: AgentRuntime = { ...runtime, resumeSession: () => Promise.reject(refusal) };
    const exit = await exitOf(resumeFromLog(stub, id, '/log'));
    expect(exit.code).toBe(EXIT.usage);
    expect(exit.message).toBe(
      `session ${id} cannot be resumed: profile "mine" is not in this config; run again with --config /home/p/relvo.config.json, the file it was started with`,
    );
    expect(exit.detail).toContain('[resume_provider_mismatch]');
  });

  const homeRefusal = new RuntimeError('invalid_request', 'resume_refused', 'refused', {
    providerCode: 'recovery_codex_home_mismatch',
    cause: new ProviderRejection(agentError('invalid_request', 'upstream words')),
  });
  it.each([
    [
      new RuntimeError('workspace_unavailable', 'resume_workspace_mismatch', 'x'),
      'its workspace folder is gone or was moved; restore it at the same path',
    ],
    [
      homeRefusal,
      'it was recorded under another CODEX_HOME; run with the CODEX_HOME it was started with',
    ],
    [
      new RuntimeError('provider_unavailable', 'resume_refused', 'x', {
        providerCode: 'recovery_thread_open_elsewhere',
      }),
      'another codex still has its thread open; end that run (or wait for its host to stop), then resume again',
    ],
  ])('%s: one line with what to do, exit 1', async (refusal, advice) => {
    const { runtime, id } = await runtimeWithClosedSession();
    const stub: AgentRuntime = { ...runtime, resumeSession: () => Promise.reject(refusal) };
    const exit = await exitOf(resumeFromLog(stub, id, '/log'));
    expect(exit.code).toBe(EXIT.failed);
    expect(exit.message).toBe(`session ${id} cannot be resumed: ${advice}`);
    expect(exit.message).not.toContain('upstream words');
  });

  it('an event log makes codex profiles persist their thread, unless a profile says otherwise', () => {
    const config = parseRuntimeConfig({
      defaultProfile: 'a',
      profiles: {
        a: { provider: 'codex', providerOptions: { sandboxMode: 'read-only' } },
        b: { provider: 'codex', providerOptions: { persistence: 'ephemeral' } },
      },
    });
    const persisted = withThreadPersistence(config);
    expect(persisted.profiles.a?.providerOptions).toEqual({
      sandboxMode: 'read-only',
      persistence: 'thread',
    });
    expect(persisted.profiles.b?.providerOptions).toEqual({ persistence: 'ephemeral' });
  });
});
