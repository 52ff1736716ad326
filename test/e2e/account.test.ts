/**
 * `provider.readAccount()` on the real binary: codex's own `account/read` on a connection of its
 * own, in the three states a host meets (no login, an API-key login, a model provider that needs
 * none), and nothing left running afterwards.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createCodexProvider, type CodexAccountStatus } from '../../src/index.js';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  requireCodexBinary,
  type IsolatedCodexHome,
} from '../../src/testing/index.js';
import { processesWithEnv } from '../support/proc-scan.js';
import { testEnv } from '../support/processes.js';
import { acceptUnderReview } from '../support/releases.js';

const binary = requireCodexBinary({ kind: 'native' });
/** codex's default model provider (OpenAI), kept off the network: no plugin sync, no turn. */
const OFFLINE = ['-c', 'features.plugins=false', '-c', 'analytics.enabled=false'];

const homes: IsolatedCodexHome[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) home.dispose();
});

function freshHome(): IsolatedCodexHome {
  const home = createIsolatedCodexHome('relvo-account-');
  homes.push(home);
  return home;
}

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

/** `codex login --with-api-key` (the key on stdin), as a person would log in; no network. */
async function apiKeyLogin(home: IsolatedCodexHome): Promise<void> {
  const child = spawn(binary.path, [...OFFLINE, 'login', '--with-api-key'], {
    env: home.env(testEnv()),
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.stdin.end('sk-not-a-real-key\n');
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code).toBe(0);
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
    await apiKeyLogin(home);
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
