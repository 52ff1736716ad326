/**
 * `provider.login({ apiKey })` and `provider.logout()` on the real binary, on an isolated
 * CODEX_HOME and off the network: the login leaves codex logged in with an API key as
 * `account/read` reports it (and the key in codex's own store, never in what the adapter
 * publishes); logout undoes it. With a model provider that needs an OpenAI login, the next model
 * request carries the key, and after logout none.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProviderRejection } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { createCodexProvider, type CodexProviderOptions } from '../../src/index.js';
import { codexConfigArgs, requireCodexBinary, textStep } from '../../src/testing/index.js';
import { isolatedHomes, OFFLINE } from '../support/codex-login.js';
import { processesWithEnv } from '../support/proc-scan.js';
import { testEnv } from '../support/processes.js';
import { openRealCodex, sessionInit } from '../support/real-codex.js';
import { acceptUnderReview } from '../support/releases.js';
import * as turns from '../support/turns.js';

const binary = requireCodexBinary({ kind: 'native' });
const freshHome = isolatedHomes('relvo-login-');
const FAKE_KEY = 'sk-fake-login-CANARY-0123456789';

/** A provider on a fresh home, with no model to reach. */
function offlineProvider(
  home: ReturnType<typeof freshHome>,
  over: Partial<CodexProviderOptions> = {},
) {
  return createCodexProvider({
    executable: binary.path,
    extraArgs: OFFLINE,
    env: home.env(testEnv()),
    ...over,
  });
}

describe('login and logout (real binary)', () => {
  it('an API-key login leaves codex logged in; logout undoes it; the key is never echoed', async () => {
    const home = freshHome();
    const provider = offlineProvider(home, {
      requestTimeoutMs: 20_000,
      additionalAppServerVersions: acceptUnderReview(binary.version),
    });
    const cwd = home.workspace;
    expect(await provider.readAccount({ cwd })).toMatchObject({ loggedIn: false, authMode: null });
    const after = await provider.login({ apiKey: FAKE_KEY, cwd });
    expect(after).toEqual({ loggedIn: true, requiresOpenaiAuth: true, authMode: 'apiKey' });
    expect(await provider.readAccount({ cwd })).toEqual(after);
    // codex keeps the key in its own store under this CODEX_HOME
    expect(readFileSync(join(home.codexHome, 'auth.json'), 'utf8')).toContain(FAKE_KEY);
    expect(JSON.stringify(after)).not.toContain(FAKE_KEY);
    const out = await provider.logout({ cwd });
    expect(out).toEqual({ loggedIn: false, requiresOpenaiAuth: true, authMode: null });
    expect(existsSync(join(home.codexHome, 'auth.json'))).toBe(false);
    expect(await provider.readAccount({ cwd })).toEqual(out);
    // each call's app-server is gone once it resolved
    expect(processesWithEnv(`CODEX_HOME=${home.codexHome}`)).toEqual([]);
  }, 60_000);

  it('a malformed key is refused before codex is started, without echoing it', async () => {
    const home = freshHome();
    const provider = offlineProvider(home);
    const refused = await provider
      .login({ apiKey: `${FAKE_KEY} with spaces`, cwd: home.workspace })
      .catch((e: unknown) => e);
    expect(isProviderRejection(refused) && refused.agentError).toMatchObject({
      code: 'invalid_request',
      providerCode: 'invalid_options',
      details: { issues: ['apiKey'] },
    });
    expect(JSON.stringify(refused)).not.toContain('CANARY');
    expect(existsSync(join(home.codexHome, 'auth.json'))).toBe(false);
  });

  it('with a provider that needs an OpenAI login, the next turn carries the key; after logout none', async () => {
    const needsLogin = ['model_providers.scripted.requires_openai_auth=true'];
    const codex = await openRealCodex({}, { extra: needsLogin });
    const provider = createCodexProvider({
      executable: binary.path,
      extraArgs: codexConfigArgs({
        baseUrl: codex.server.baseUrl,
        extra: needsLogin,
      }),
      env: codex.iso.env(testEnv()),
      additionalAppServerVersions: acceptUnderReview(binary.version),
    });
    const cwd = codex.iso.workspace;
    expect((await provider.login({ apiKey: FAKE_KEY, cwd })).authMode).toBe('apiKey');
    codex.server.enqueue(textStep('with the key'), textStep('without'));
    const turn = async (runRef: string) => {
      const session = await provider.createSession(sessionInit(cwd));
      try {
        return await turns.end(session, 'hi', runRef);
      } finally {
        await session.dispose();
      }
    };
    expect(await turn('l1')).toEqual({ outcome: 'succeeded' });
    expect(codex.server.requests.at(-1)?.headers['authorization']).toBe(`Bearer ${FAKE_KEY}`);
    expect((await provider.logout({ cwd })).authMode).toBeNull();
    expect(await turn('l2')).toEqual({ outcome: 'succeeded' });
    expect(codex.server.requests.at(-1)?.headers['authorization']).toBeUndefined();
  }, 60_000);
});
