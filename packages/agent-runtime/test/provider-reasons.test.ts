/**
 * A provider's refusal reaches the host with the provider's own code, providerCode, details and
 * retryability on the runtime error itself; retryability agrees with the reason everywhere.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  agentError,
  ProviderRejection,
  type AgentError,
  type AgentProvider,
} from '@relvo-labs/agent-provider';
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  isConfigRefusal,
  isRuntimeError,
  openSqliteEventStore,
  toAgentError,
  type RuntimeError,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { manualRuntime, onCleanup, tempDir, until } from './support.js';

function refusingProvider(refusal: AgentError): AgentProvider {
  const { provider } = createScriptedProvider();
  return {
    describe: () => provider.describe(),
    createSession: () => Promise.reject(new ProviderRejection(refusal)),
  };
}

async function submitRefusal(refusal: AgentError): Promise<RuntimeError> {
  const runtime = await createAgentRuntime({
    providers: { scripted: () => refusingProvider(refusal) },
    config: { defaultProfile: 'p', profiles: { p: { provider: 'scripted' } } },
  });
  onCleanup(() => runtime.shutdown());
  const session = await runtime.openSession({ workspace: tempDir() });
  const error: unknown = await session.submitTurn({ input: 'x' }).catch((e: unknown) => e);
  if (!isRuntimeError(error)) throw new Error('expected a RuntimeError');
  return error;
}

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('a provider refusal keeps the provider reason', () => {
  it('a permanent start-up failure: code, providerCode and details on the error, not retryable', async () => {
    const error = await submitRefusal(
      agentError('provider_rejected', 'codex could not be started (ENOENT)', {
        providerCode: 'spawn_failed',
        details: { cause: 'ENOENT' },
      }),
    );
    expect(error.reason).toBe('provider_rejected');
    expect(error.code).toBe('provider_rejected');
    expect(error.error).toMatchObject({
      code: 'provider_rejected',
      providerCode: 'spawn_failed',
      retryable: false,
      details: { reason: 'provider_rejected', profile: 'p', providerDetails: { cause: 'ENOENT' } },
    });
    // the session options were not what was refused
    expect(error.error.details?.path).toBeUndefined();
    expect(toAgentError(error)).toEqual(error.error);
  });

  it('a transient one stays retryable, as the provider said', async () => {
    const error = await submitRefusal(
      agentError('provider_unavailable', 'codex exited before answering initialize', {
        providerCode: 'exited_before_initialize',
        details: { signal: 'SIGKILL' },
      }),
    );
    expect(error.error).toMatchObject({
      code: 'provider_unavailable',
      providerCode: 'exited_before_initialize',
      retryable: true,
      details: { providerDetails: { signal: 'SIGKILL' } },
    });
  });

  it('refused session options name the key path and are never retryable', async () => {
    const error = await submitRefusal(
      agentError('invalid_request', 'invalid options', {
        providerCode: 'invalid_options',
        details: { issues: ['model'] },
      }),
    );
    expect(error.reason).toBe('session_options_refused');
    expect(error.error).toMatchObject({
      providerCode: 'invalid_options',
      retryable: false,
      details: { path: 'profiles.p.sessionOptions', providerDetails: { issues: ['model'] } },
    });
  });
});

describe('a refused interrupt keeps the provider reason too', () => {
  it('providerCode and details on the error', async () => {
    const { manual, session } = await manualRuntime();
    const turn = await session.submitTurn({ input: 'x' });
    await until(() => manual.sessions[0]?.runs.length === 1, 'run');
    manual.interruptFailure = new ProviderRejection(
      agentError('capability_unsupported', 'not now', {
        providerCode: 'interrupt_refused',
        details: { phase: 'starting' },
      }),
    );
    const error = await session.interrupt().catch((e: unknown) => e);
    expect(isRuntimeError(error) && error.error).toMatchObject({
      code: 'capability_unsupported',
      providerCode: 'interrupt_refused',
      retryable: false,
      details: { reason: 'provider_rejected', providerDetails: { phase: 'starting' } },
    });
    manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    await turn.done;
  });
});

describe('retryable agrees with the reason', () => {
  it('a missing workspace is a config refusal and not retryable', async () => {
    const runtime = await createAgentRuntime({
      providers: { scripted: () => createScriptedProvider().provider },
      config: { defaultProfile: 'p', profiles: { p: { provider: 'scripted' } } },
    });
    onCleanup(() => runtime.shutdown());
    const error = await runtime
      .openSession({ workspace: join(tempDir(), 'missing') })
      .catch((e: unknown) => e);
    expect(isConfigRefusal(error)).toBe(true);
    expect(isRuntimeError(error) && error.error.retryable).toBe(false);
  });

  it('a corrupt store is not retryable', () => {
    const path = join(tempDir(), 'events.db');
    writeFileSync(path, 'this is not a database, and never will be; '.repeat(200));
    const error = caught(() => openSqliteEventStore({ path }));
    expect(isRuntimeError(error) && [error.reason, error.error.retryable]).toEqual([
      'store_corrupt',
      false,
    ]);
  });

  it('toAgentError turns anything thrown into a bounded AgentError', () => {
    expect(toAgentError(new Error('secret upstream prose'))).toEqual({
      code: 'internal',
      message: 'an unexpected error occurred',
      retryable: false,
    });
  });
});
