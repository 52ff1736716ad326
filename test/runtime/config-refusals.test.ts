/**
 * A codex profile's typo is refused when the runtime is created, by key, with the closest known
 * key and the allowed values: the provider's own schemas travel with createCodexProvider.
 */
import { isProviderRejection } from '@relvo-labs/agent-provider';
import { createAgentRuntime, isRuntimeError, type RuntimeError } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { createCodexProvider, type CodexProviderOptions } from '../../src/index.js';
import { CODEX_SANDBOX_MODES } from '../../src/protocol/wire-names.js';

/** createAgentRuntime refuses before it claims anything, so there is nothing to shut down. */
async function creationRefusal(profile: Record<string, unknown>): Promise<RuntimeError> {
  const config = { defaultProfile: 'c', profiles: { c: { provider: 'codex', ...profile } } };
  const outcome: unknown = await createAgentRuntime({
    providers: { codex: createCodexProvider },
    config,
  }).catch((e: unknown) => e);
  if (!isRuntimeError(outcome)) throw new Error('createAgentRuntime did not refuse');
  return outcome;
}

describe('codex options are refused at createAgentRuntime, by key', () => {
  it('approvalMode is named, with approvals as the key meant', async () => {
    const error = await creationRefusal({ providerOptions: { approvalMode: 'bridge' } });
    expect(error.reason).toBe('provider_options_refused');
    expect(error.error.details).toMatchObject({
      profile: 'c',
      path: 'profiles.c.providerOptions.approvalMode',
      issues: [{ code: 'unknown_key', key: 'approvalMode', suggestion: 'approvals' }],
    });
  });

  it('a sandbox mode that does not exist lists the ones that do', async () => {
    const error = await creationRefusal({ sessionOptions: { sandboxMode: 'readonly' } });
    expect(error.reason).toBe('session_options_refused');
    expect(error.error.details).toMatchObject({
      path: 'profiles.c.sessionOptions.sandboxMode',
      issues: [{ code: 'not_allowed', allowed: [...CODEX_SANDBOX_MODES] }],
    });
  });

  it('the provider itself names an unknown key, not its parent object', () => {
    let thrown: unknown;
    try {
      createCodexProvider({ approvalMode: 'bridge' } as CodexProviderOptions);
    } catch (error) {
      thrown = error;
    }
    expect(isProviderRejection(thrown) && thrown.agentError.details).toEqual({
      issues: ['approvalMode'],
    });
  });
});
