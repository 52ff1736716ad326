/**
 * `provider.readAccount()` on the real binary: codex's own `account/read` on a connection of its
 * own, in the three states a host meets (no login, an API-key login, a model provider that needs
 * none), and nothing left running afterwards.
 */
import { describe, expect, it } from 'vitest';
import { createCodexProvider, type CodexAccountStatus } from '../../src/index.js';
import {
  codexConfigArgs,
  requireCodexBinary,
  type IsolatedCodexHome,
} from '../../src/testing/index.js';
import { apiKeyLogin, isolatedHomes, OFFLINE } from '../support/codex-login.js';
import { processesWithEnv } from '../support/proc-scan.js';
import { testEnv } from '../support/processes.js';
import { acceptUnderReview } from '../support/releases.js';

const binary = requireCodexBinary({ kind: 'native' });

const freshHome = isolatedHomes('relvo-account-');

async function readAccount(
  home: IsolatedCodexHome,
  extraArgs: string[],
): Promise<CodexAccountStatus> {
  const provider = createCodexProvider({
    executable: binary.path,
    extraArgs,
    env: home.env(testEnv()),
    requestTimeoutMs: 20_000,
    additionalAppServerVersions: acceptUnderReview(binary.version),
  });
  const status = await provider.readAccount({ cwd: home.workspace });
  // the probe's app-server is gone once the promise resolved
  expect(processesWithEnv(`CODEX_HOME=${home.codexHome}`)).toEqual([]);
  return status;
}

describe('readAccount (real binary)', () => {
  it('no login with the default model provider: not logged in, a login is required', async () => {
    const home = freshHome();
    expect(await readAccount(home, OFFLINE)).toEqual({
      loggedIn: false,
      requiresOpenaiAuth: true,
      authMode: null,
    });
  }, 60_000);

  it('after `codex login --with-api-key`: logged in with an API key', async () => {
    const home = freshHome();
    expect(await apiKeyLogin(binary.path, home)).toBe(0);
    expect(await readAccount(home, OFFLINE)).toEqual({
      loggedIn: true,
      requiresOpenaiAuth: true,
      authMode: 'apiKey',
    });
  }, 60_000);

  it('a model provider that needs no OpenAI login (the scripted model): logged in, no account', async () => {
    const home = freshHome();
    const args = codexConfigArgs({ baseUrl: 'http://127.0.0.1:9/v1' });
    expect(await readAccount(home, args)).toEqual({
      loggedIn: true,
      requiresOpenaiAuth: false,
      authMode: null,
    });
  }, 60_000);
});
