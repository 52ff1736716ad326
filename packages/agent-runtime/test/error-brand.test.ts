/**
 * The runtime tells errors apart by brand, so a provider loaded from another copy of the SPI (its
 * CommonJS build beside the runtime's ESM one) is heard right, and a host reading the runtime's
 * errors through another copy of this package recognises them. The built packages are mixed for
 * real in test/packaging/mixed-formats.test.ts; here the other copy is made with the SPI's public
 * brand helpers, or loaded a second time under a query string.
 */
import {
  AgentRuntimeError,
  agentError,
  classBrand,
  fixField,
  isAgentRuntimeError,
  isProviderRejection,
  type AgentError,
  type AgentProvider,
} from '@relvo-labs/agent-provider';
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import { createAgentRuntime, isRuntimeError, RuntimeError } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { manualRuntime, onCleanup, tempDir, until } from './support.js';

type ErrorsModule = typeof import('../src/errors.js');

/** A ProviderRejection as another copy of the SPI builds it: another class, the same brand. */
class ForeignRejection extends Error {
  declare readonly agentError: AgentError;
  static {
    classBrand('@relvo-labs/agent-provider', 'ProviderRejection').mark(this, isProviderRejection);
  }
  constructor(error: AgentError) {
    super(error.message);
    fixField(this, 'agentError', Object.freeze({ ...error }));
    fixField(this, 'certainty', 'definite');
  }
}

const REFUSAL = agentError('provider_unavailable', 'codex could not be started', {
  providerCode: 'spawn_failed',
});

describe('a definite refusal from another copy of the SPI', () => {
  it('is read as definite when a session cannot be opened', async () => {
    const { provider: scripted } = createScriptedProvider();
    const provider: AgentProvider = {
      describe: () => scripted.describe(),
      createSession: () => Promise.reject(new ForeignRejection(REFUSAL)),
    };
    const runtime = await createAgentRuntime({
      providers: { scripted: () => provider },
      config: { defaultProfile: 'p', profiles: { p: { provider: 'scripted' } } },
    });
    onCleanup(() => runtime.shutdown());
    const session = await runtime.openSession({ workspace: tempDir() });
    const error: unknown = await session.submitTurn({ input: 'x' }).catch((e: unknown) => e);
    expect(isRuntimeError(error) && error.reason).toBe('provider_rejected');
    expect(isRuntimeError(error) && error.error.providerCode).toBe('spawn_failed');
  });

  it('is read as definite when an interrupt is refused', async () => {
    const { manual, session } = await manualRuntime();
    const turn = await session.submitTurn({ input: 'x' });
    await until(() => manual.sessions[0]?.runs.length === 1, 'run');
    manual.interruptFailure = new ForeignRejection(
      agentError('capability_unsupported', 'not now', { providerCode: 'interrupt_refused' }),
    );
    const error = await session.interrupt().catch((e: unknown) => e);
    expect(isRuntimeError(error) && error.reason).toBe('provider_rejected');
    manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    await turn.done;
  });
});

describe('RuntimeError', () => {
  it('is recognised across two copies of the runtime, both ways', async () => {
    const url = new URL('../src/errors.ts?second-copy', import.meta.url).href;
    const other = (await import(url)) as ErrorsModule;
    expect(other.RuntimeError).not.toBe(RuntimeError);
    const theirs = new other.RuntimeError('invalid_request', 'unknown_profile', 'no profile');
    expect(isRuntimeError(theirs)).toBe(true);
    expect(theirs instanceof RuntimeError).toBe(true);
    expect(isRuntimeError(theirs) && theirs.reason).toBe('unknown_profile');
    expect(other.isConfigRefusal(new RuntimeError('invalid_request', 'unknown_profile', 'x'))).toBe(
      true,
    );
  });

  it('is not any AgentRuntimeError, and its reason is fixed', () => {
    const error = new RuntimeError('session_closed', 'session_closed', 'closed');
    expect(isAgentRuntimeError(error)).toBe(true);
    expect(isRuntimeError(new AgentRuntimeError('session_closed', 'closed'))).toBe(false);
    expect(() => {
      (error as { reason: string }).reason = 'made_up';
    }).toThrow(TypeError);
    expect(isRuntimeError(error)).toBe(true);
  });
});
