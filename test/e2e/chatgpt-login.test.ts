/**
 * `provider.startChatgptLogin()` on the real binary, on an isolated CODEX_HOME, never
 * completing a real sign-in (no network): the address to open comes at once and points codex's
 * redirect at its own loopback listener; the login's app-server stays up until the login ends;
 * `cancel()` and the deadline end it (codex's `account/login/cancel`) and leave nothing running
 * and nobody logged in.
 */
import { describe, expect, it } from 'vitest';
import { createCodexProvider } from '../../src/index.js';
import { requireCodexBinary } from '../../src/testing/index.js';
import { isolatedHomes, OFFLINE } from '../support/codex-login.js';
import { processesWithEnv } from '../support/proc-scan.js';
import { testEnv } from '../support/processes.js';
import { acceptUnderReview } from '../support/releases.js';

const binary = requireCodexBinary({ kind: 'native' });
const freshHome = isolatedHomes('relvo-chatgpt-login-');

function providerFor(home: ReturnType<typeof freshHome>) {
  return createCodexProvider({
    executable: binary.path,
    extraArgs: OFFLINE,
    env: home.env(testEnv()),
    requestTimeoutMs: 20_000,
    additionalAppServerVersions: acceptUnderReview(binary.version),
  });
}

describe('startChatgptLogin (real binary, offline)', () => {
  it('gives the sign-in address, keeps its app-server until cancelled, then nothing is left', async () => {
    const home = freshHome();
    const provider = providerFor(home);
    const login = await provider.startChatgptLogin({ cwd: home.workspace });
    const url = new URL(login.authUrl);
    expect(url.protocol).toBe('https:');
    expect(url.hostname).toBe('auth.openai.com');
    expect(url.searchParams.get('redirect_uri')).toMatch(
      /^http:\/\/(127\.0\.0\.1|localhost):\d+\//,
    );
    // the login's listener lives in its app-server: still running while the login waits
    expect(processesWithEnv(`CODEX_HOME=${home.codexHome}`)).not.toEqual([]);
    expect(await login.cancel()).toEqual({ outcome: 'cancelled' });
    expect(await login.done).toEqual({ outcome: 'cancelled' });
    // idempotent
    expect(await login.cancel()).toEqual({ outcome: 'cancelled' });
    expect(processesWithEnv(`CODEX_HOME=${home.codexHome}`)).toEqual([]);
    expect((await provider.readAccount({ cwd: home.workspace })).authMode).toBeNull();
  }, 60_000);

  it('ends timed_out at its deadline', async () => {
    const home = freshHome();
    const login = await providerFor(home).startChatgptLogin({
      cwd: home.workspace,
      timeoutMs: 300,
    });
    expect(await login.done).toEqual({ outcome: 'timed_out' });
    expect(processesWithEnv(`CODEX_HOME=${home.codexHome}`)).toEqual([]);
  }, 60_000);
});
