/**
 * Through the runtime, each codex start-up failure keeps its own reason: the provider's code,
 * providerCode and details are on the runtime error itself, with the provider's retryability.
 * The spawns are real (a missing path, a script that is not codex); the version window is the
 * provider's own check, answered with the userAgent shape the real binary sends.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentRuntime, isRuntimeError, type RuntimeError } from '@relvo-labs/agent-runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { CODEX_APP_SERVER_VERSION } from '../../src/constants.js';
import { createCodexProvider, type CodexProviderOptions } from '../../src/index.js';
import { useFakeTransport } from '../support/fake-transport.js';
import { testEnv } from '../support/processes.js';
import { reply } from '../support/provider-frames.js';
import { recordedUserAgentOf, unlistedNeighbours } from '../support/releases.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-reasons-'));
  cleanups.push(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Submits one turn on a codex profile whose options are JSON, as a config file holds them. */
async function refusalOf(
  providerOptions: Record<string, string | number>,
  extra: Partial<CodexProviderOptions> = {},
  during?: () => Promise<void>,
): Promise<RuntimeError> {
  const runtime = await createAgentRuntime({
    providers: {
      codex: (options: CodexProviderOptions) =>
        createCodexProvider({ ...options, env: testEnv(), ...extra }),
    },
    config: { defaultProfile: 'c', profiles: { c: { provider: 'codex', providerOptions } } },
  });
  cleanups.push(() => runtime.shutdown());
  const session = await runtime.openSession({ workspace: scratch() });
  const submitted = session.submitTurn({ input: 'hi' }).catch((e: unknown) => e);
  if (during !== undefined) await during();
  const error = await submitted;
  if (!isRuntimeError(error)) throw new Error('expected a RuntimeError');
  return error;
}

describe('the runtime keeps the provider reason', () => {
  it('a missing codex: spawn_failed with the ENOENT cause, not retryable', async () => {
    const missing = join(scratch(), 'no-such-codex');
    const error = await refusalOf({ executable: missing });
    expect(error.reason).toBe('provider_rejected');
    expect(error.error).toMatchObject({
      code: 'provider_rejected',
      providerCode: 'spawn_failed',
      retryable: false,
      details: { profile: 'c', providerDetails: { cause: 'ENOENT' } },
    });
    expect(error.error.details?.path).toBeUndefined();
    expect(JSON.stringify(error.error)).not.toContain(missing);
  });

  it('a program that is not codex exits before initialize: its exit code is in the details', async () => {
    const script = join(scratch(), 'not-codex.sh');
    writeFileSync(script, '#!/bin/sh\nexit 3\n');
    chmodSync(script, 0o755);
    const error = await refusalOf({ executable: script });
    expect(error.error).toMatchObject({
      code: 'provider_rejected',
      providerCode: 'exited_before_initialize',
      retryable: false,
      details: { providerDetails: { exitCode: 3 } },
    });
  });

  it('a release outside the window: unsupported_app_server_version with what to install', async () => {
    const [outside = '0.0.0'] = unlistedNeighbours();
    const transport = useFakeTransport();
    const error = await refusalOf({}, { transport: () => transport }, () =>
      reply(transport, 'initialize', { userAgent: recordedUserAgentOf(outside) }),
    );
    expect(error.error).toMatchObject({
      code: 'provider_rejected',
      providerCode: 'unsupported_app_server_version',
      retryable: false,
      details: {
        providerDetails: {
          foundVersion: outside,
          install: `npm i -E @openai/codex@${CODEX_APP_SERVER_VERSION}`,
        },
      },
    });
  });
});
