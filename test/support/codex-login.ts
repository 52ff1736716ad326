/**
 * codex on its default model provider, kept off the network (no plugin sync, no analytics, no
 * turn), and logged in with an API key the way a person does it: for the session-less questions
 * (`readAccount`, `listModels`, `readRateLimits`) on the real binary.
 */
import { spawn } from 'node:child_process';
import { afterEach } from 'vitest';
import { createIsolatedCodexHome, type IsolatedCodexHome } from '../../src/testing/index.js';
import { testEnv } from './processes.js';

export const OFFLINE = ['-c', 'features.plugins=false', '-c', 'analytics.enabled=false'];

/** `codex login --with-api-key` (a fake key on stdin); resolves with codex's exit code. */
export async function apiKeyLogin(
  codexPath: string,
  home: IsolatedCodexHome,
): Promise<number | null> {
  const child = spawn(codexPath, [...OFFLINE, 'login', '--with-api-key'], {
    env: home.env(testEnv()),
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.stdin.end('sk-not-a-real-key\n');
  return new Promise<number | null>((resolve) => child.on('exit', resolve));
}

/** A fresh isolated codex home per call, every one disposed after the test that made it. */
export function isolatedHomes(prefix: string): () => IsolatedCodexHome {
  const homes: IsolatedCodexHome[] = [];
  afterEach(() => {
    for (const home of homes.splice(0)) home.dispose();
  });
  return () => {
    const home = createIsolatedCodexHome(prefix);
    homes.push(home);
    return home;
  };
}
