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

interface StartupCase {
  readonly name: string;
  /** The provider options, and the workspace root when it is not the scratch folder. */
  readonly start: () => { options: CodexProviderOptions; root?: string };
  readonly refusal: Record<string, unknown>;
  /** What else the refusal must (not) say. */
  readonly also?: (error: AgentError, root?: string) => void;
}

const missingCodex = (): string => join(scratch, 'no-such-codex');

const CASES: readonly StartupCase[] = [
  {
    name: 'a missing executable is spawn_failed (ENOENT), not retryable',
    start: () => ({ options: { executable: missingCodex() } }),
    refusal: {
      code: 'provider_rejected',
      retryable: false,
      providerCode: 'spawn_failed',
      details: { cause: 'ENOENT' },
    },
    also: (error) => {
      expectNoLeak(error, missingCodex());
    },
  },
  {
    name: 'an executable without the execute bit is spawn_failed (EACCES), not retryable',
    start: () => {
      const file = join(scratch, 'codex');
      writeFileSync(file, '#!/bin/sh\nexit 0\n');
      chmodSync(file, 0o644);
      return { options: { executable: file } };
    },
    refusal: {
      code: 'provider_rejected',
      retryable: false,
      providerCode: 'spawn_failed',
      details: { cause: 'EACCES' },
    },
  },
  {
    name: 'a workspace root that does not exist is refused before anything is spawned',
    // the executable does not exist either: a spawn attempt would say spawn_failed instead
    start: () => ({ options: { executable: missingCodex() }, root: join(scratch, 'gone') }),
    refusal: { code: 'workspace_unavailable', retryable: true, providerCode: 'workspace_missing' },
    also: (error, root) => {
      expectNoLeak(error, root ?? scratch);
    },
  },
  {
    name: 'a workspace root that is a file is an invalid request',
    start: () => {
      const root = join(scratch, 'a-file');
      writeFileSync(root, 'x');
      return { options: { executable: missingCodex() }, root };
    },
    refusal: {
      code: 'invalid_request',
      retryable: false,
      providerCode: 'workspace_not_directory',
    },
  },
  {
    name: '/bin/true exits before answering initialize: exit code 0 in details',
    start: () => ({ options: { executable: '/bin/true' } }),
    refusal: {
      code: 'provider_rejected',
      retryable: false,
      providerCode: 'exited_before_initialize',
      details: { exitCode: 0 },
    },
    also: (error) => {
      expect(error.message).toBe('codex exited before answering initialize (exit code 0)');
    },
  },
  {
    name: '/bin/cat (refuses app-server --stdio) exits before initialize with its exit code',
    start: () => ({ options: { executable: '/bin/cat' } }),
    refusal: {
      providerCode: 'exited_before_initialize',
      retryable: false,
      details: { exitCode: 1 },
    },
    also: (error) => {
      // cat's complaint went to stderr and stays there
      expect(JSON.stringify(error)).not.toMatch(/unrecognized|invalid option|stdio/);
    },
  },
  {
    name: 'a process killed by a signal before initialize is retryable, with the signal in details',
    start: () => ({ options: node('self-kill.cjs') }),
    refusal: {
      code: 'provider_unavailable',
      retryable: true,
      providerCode: 'exited_before_initialize',
      details: { signal: 'SIGKILL' },
    },
  },
  {
    name: 'a process that answers initialize with something that is not codex is handshake_invalid',
    start: () => ({ options: node('not-codex.cjs') }),
    refusal: {
      code: 'provider_contract_violation',
      retryable: false,
      providerCode: 'handshake_invalid',
    },
  },
  {
    name: 'a process that never answers initialize times out as initialize_timeout (retryable)',
    start: () => ({ options: { ...node('silent.cjs'), requestTimeoutMs: 400 } }),
    refusal: {
      code: 'provider_unavailable',
      retryable: true,
      providerCode: 'initialize_timeout',
      details: { timeoutMs: 400 },
    },
  },
];

describe('createSession start-up failures', () => {
  for (const { name, start, refusal, also } of CASES) {
    it(name, async () => {
      const { options, root } = start();
      const error = await startupError(options, root);
      expect(error).toMatchObject(refusal);
      also?.(error, root);
    });
  }
});
