/**
 * `relvo-codex login` and `logout` on the real pinned codex with an isolated CODEX_HOME (never a
 * person's own) and no network: the key is read from stdin, codex reports the API-key login
 * afterwards, the key is never printed and never in argv; logout removes it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createIsolatedCodexHome,
  type IsolatedCodexHome,
} from '@relvo-labs/agent-provider-codex/testing';
import { runCli, survivorsAfter } from './support/cli.js';
import { homeEnv } from './support/codex-login.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function freshHome(): IsolatedCodexHome {
  const home = createIsolatedCodexHome('relvo-cli-login-cmd-');
  cleanups.push(() => {
    home.dispose();
  });
  return home;
}

const KEY = 'sk-cli-login-CANARY-9876543210';

describe('relvo-codex login / logout', () => {
  it('login reads the key from stdin and says codex is logged in; logout undoes it', async () => {
    const home = freshHome();
    const options = { env: homeEnv(home), unset: ['RELVO_CODEX_EXECUTABLE'] };
    const login = await runCli(['login', '--no-color'], { ...options, input: `${KEY}\n` });
    expect(login.code).toBe(0);
    expect(login.stdout).toBe('codex: logged in (apiKey)\n');
    expect(login.stdout + login.stderr).not.toContain('CANARY');
    expect(readFileSync(join(home.codexHome, 'auth.json'), 'utf8')).toContain(KEY);
    expect(await survivorsAfter(login.mark)).toEqual([]);
    const logout = await runCli(['logout', '--no-color'], options);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toBe('codex: not logged in\n');
    expect(existsSync(join(home.codexHome, 'auth.json'))).toBe(false);
  }, 60_000);

  it('no key on stdin, or a key on the command line: usage errors, nothing stored', async () => {
    const home = freshHome();
    const options = { env: homeEnv(home), unset: ['RELVO_CODEX_EXECUTABLE'] };
    const empty = await runCli(['login'], { ...options, input: '\n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('no API key on stdin');
    const argv = await runCli(['login', KEY], { ...options, input: '' });
    expect(argv.code).toBe(2);
    expect(argv.stderr).toContain('too many arguments');
    expect(argv.stderr).not.toContain('CANARY');
    expect(existsSync(join(home.codexHome, 'auth.json'))).toBe(false);
  }, 60_000);
});
