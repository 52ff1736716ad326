import { isProviderRejection } from '@relvo-labs/agent-provider';
import {
  parseRuntimeConfig,
  type RuntimeConfigInput,
  type RuntimeProfile,
} from '@relvo-labs/agent-runtime';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { codexProfile, type CodexProfile } from '../../src/index.js';

function refusalOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

describe('codexProfile', () => {
  it('returns the options as given, and the runtime config accepts the profile unchanged', () => {
    const profile = codexProfile({
      providerOptions: { sandboxMode: 'read-only', approvals: 'bridge', extraArgs: ['-c', 'x=1'] },
      sessionOptions: { model: 'gpt-test' },
      description: 'read-only',
    });
    expect(profile).toEqual({
      provider: 'codex',
      providerOptions: { sandboxMode: 'read-only', approvals: 'bridge', extraArgs: ['-c', 'x=1'] },
      sessionOptions: { model: 'gpt-test' },
      description: 'read-only',
    });
    const config = parseRuntimeConfig({ defaultProfile: 'ro', profiles: { ro: profile } });
    expect(config.profiles.ro?.providerOptions).toEqual(profile.providerOptions);
    expect(codexProfile()).toEqual({ provider: 'codex', providerOptions: {}, sessionOptions: {} });
  });

  it('refuses an unknown key by its path, with a typed rejection', () => {
    const error = refusalOf(() =>
      codexProfile({ providerOptions: { sandboxMod: 'read-only' } as never }),
    );
    expect(isProviderRejection(error)).toBe(true);
    if (!isProviderRejection(error)) return;
    expect(error.agentError.code).toBe('invalid_request');
    expect(error.agentError.providerCode).toBe('invalid_options');
    expect(JSON.stringify(error.agentError.details)).toContain('sandboxMod');
  });

  it('refuses options that are not JSON (a function, a non-finite number) without echoing them', () => {
    const withFunction = refusalOf(() =>
      codexProfile({ providerOptions: { transport: () => null } as never }),
    );
    expect(isProviderRejection(withFunction)).toBe(true);
    if (!isProviderRejection(withFunction)) return;
    expect(withFunction.agentError.details).toEqual({ issues: ['providerOptions'] });
    const nonFinite = refusalOf(() =>
      codexProfile({ providerOptions: { requestTimeoutMs: Number.NaN } }),
    );
    expect(isProviderRejection(nonFinite)).toBe(true);
    const badSession = refusalOf(() =>
      codexProfile({ sessionOptions: { sandboxMode: 'everything' as 'read-only' } }),
    );
    expect(isProviderRejection(badSession)).toBe(true);
    expect(JSON.stringify(badSession)).not.toContain('everything');
  });

  it('is typed: assignable to the runtime profile, adapter options checked at compile time', () => {
    expectTypeOf<CodexProfile>().toExtend<RuntimeProfile>();
    const profiles: RuntimeConfigInput['profiles'] = {
      ro: codexProfile({ providerOptions: { sandboxMode: 'read-only', persistence: 'thread' } }),
    };
    expect(Object.keys(profiles)).toEqual(['ro']);
    expectTypeOf(codexProfile).parameter(0).exclude<undefined>().toHaveProperty('providerOptions');
    // @ts-expect-error an unknown provider option key does not compile
    expect(() => codexProfile({ providerOptions: { sandboxMod: 'read-only' } })).toThrow();
    // @ts-expect-error a bad value does not compile
    expect(() => codexProfile({ providerOptions: { sandboxMode: 'anything' } })).toThrow();
    // @ts-expect-error the function-valued options cannot be in a profile
    expect(() => codexProfile({ providerOptions: { onRateLimits: () => undefined } })).toThrow();
  });
});
