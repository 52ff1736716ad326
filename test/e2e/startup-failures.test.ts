/**
 * Start-up failures say what failed: each case spawns (or refuses to spawn)
 * a real process through the production transport and checks the typed refusal: bounded
 * providerCode, the SPI's retryability for the code, details without paths or prose.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isProviderRejection, type AgentError } from '@relvo-labs/agent-provider';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCodexProvider, type CodexProviderOptions } from '../../src/index.js';
import { testEnv } from '../support/processes.js';
import { recordingSink } from '../support/provider-harness.js';

const STAND_INS = resolve(
  fileURLToPath(new URL('.', import.meta.url)),
  '..',
  'support',
  'stand-ins',
);

let scratch = '';
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'relvo-startup-'));
});
afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

async function startupError(
  options: CodexProviderOptions,
  root: string = scratch,
): Promise<AgentError> {
  const provider = createCodexProvider({ env: testEnv(), ...options });
  const outcome = await provider
    .createSession({
      options: {},
      workspace: { root, ownership: 'borrowed' },
      sink: recordingSink(),
    })
    .then(
      async (session) => {
        await session.dispose();
        return undefined;
      },
      (error: unknown) => error,
    );
  if (!isProviderRejection(outcome))
    throw new Error('createSession did not reject with a ProviderRejection');
  expect(provider.abandonedConnectionCount).toBe(0);
  return outcome.agentError;
}

function expectNoLeak(error: AgentError, ...secrets: string[]): void {
  const text = JSON.stringify(error);
  for (const s of [scratch, STAND_INS, ...secrets]) expect(text).not.toContain(s);
}

const node = (script: string): Pick<CodexProviderOptions, 'executable' | 'extraArgs'> => ({
  executable: process.execPath,
  extraArgs: [join(STAND_INS, script)],
});

describe('createSession start-up failures', () => {
  it('a missing executable is spawn_failed (ENOENT), not retryable', async () => {
    const missing = join(scratch, 'no-such-codex');
    const error = await startupError({ executable: missing });
    expect(error).toMatchObject({
      code: 'provider_rejected',
      retryable: false,
      providerCode: 'spawn_failed',
      details: { cause: 'ENOENT' },
    });
    expectNoLeak(error, missing);
  });

  it('an executable without the execute bit is spawn_failed (EACCES), not retryable', async () => {
    const file = join(scratch, 'codex');
    writeFileSync(file, '#!/bin/sh\nexit 0\n');
    chmodSync(file, 0o644);
    const error = await startupError({ executable: file });
    expect(error).toMatchObject({
      code: 'provider_rejected',
      retryable: false,
      providerCode: 'spawn_failed',
      details: { cause: 'EACCES' },
    });
  });

  it('a workspace root that does not exist is refused before anything is spawned', async () => {
    const root = join(scratch, 'gone');
    // the executable does not exist either: a spawn attempt would say spawn_failed instead
    const error = await startupError({ executable: join(scratch, 'no-such-codex') }, root);
    expect(error).toMatchObject({
      code: 'workspace_unavailable',
      retryable: true,
      providerCode: 'workspace_missing',
    });
    expectNoLeak(error, root);
  });

  it('a workspace root that is a file is an invalid request', async () => {
    const root = join(scratch, 'a-file');
    writeFileSync(root, 'x');
    const error = await startupError({ executable: join(scratch, 'no-such-codex') }, root);
    expect(error).toMatchObject({
      code: 'invalid_request',
      retryable: false,
      providerCode: 'workspace_not_directory',
    });
  });

  it('/bin/true exits before answering initialize: exit code 0 in details', async () => {
    const error = await startupError({ executable: '/bin/true' });
    expect(error).toMatchObject({
      code: 'provider_rejected',
      retryable: false,
      providerCode: 'exited_before_initialize',
      details: { exitCode: 0 },
    });
    expect(error.message).toBe('codex exited before answering initialize (exit code 0)');
  });

  it('/bin/cat (refuses app-server --stdio) exits before initialize with its exit code', async () => {
    const error = await startupError({ executable: '/bin/cat' });
    expect(error).toMatchObject({
      providerCode: 'exited_before_initialize',
      retryable: false,
      details: { exitCode: 1 },
    });
    // cat's complaint went to stderr and stays there
    expect(JSON.stringify(error)).not.toMatch(/unrecognized|invalid option|stdio/);
  });

  it('a process killed by a signal before initialize is retryable, with the signal in details', async () => {
    const error = await startupError(node('self-kill.cjs'));
    expect(error).toMatchObject({
      code: 'provider_unavailable',
      retryable: true,
      providerCode: 'exited_before_initialize',
      details: { signal: 'SIGKILL' },
    });
  });

  it('a process that answers initialize with something that is not codex is handshake_invalid', async () => {
    const error = await startupError(node('not-codex.cjs'));
    expect(error).toMatchObject({
      code: 'provider_contract_violation',
      retryable: false,
      providerCode: 'handshake_invalid',
    });
  });

  it('a process that never answers initialize times out as initialize_timeout (retryable)', async () => {
    const error = await startupError({ ...node('silent.cjs'), requestTimeoutMs: 400 });
    expect(error).toMatchObject({
      code: 'provider_unavailable',
      retryable: true,
      providerCode: 'initialize_timeout',
      details: { timeoutMs: 400 },
    });
  });
});
