/** A throw-away HOME whose codex holds an API-key login, made the way a person makes one. */
import { spawn } from 'node:child_process';
import {
  createIsolatedCodexHome,
  requireCodexBinary,
  type IsolatedCodexHome,
} from '@relvo-labs/agent-provider-codex/testing';

/** `codex login --with-api-key` (the key on stdin; codex checks it only when a request is sent). */
export async function apiKeyLoggedInHome(): Promise<IsolatedCodexHome> {
  const home = createIsolatedCodexHome('relvo-cli-login-');
  const codex = requireCodexBinary({ kind: 'native' });
  const login = spawn(codex.path, ['-c', 'features.plugins=false', 'login', '--with-api-key'], {
    env: home.env(),
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  login.stdin.end('sk-not-a-real-key\n');
  const code = await new Promise<number | null>((resolve) => login.on('exit', resolve));
  if (code !== 0) {
    home.dispose();
    throw new Error(`codex login --with-api-key exited ${String(code)}`);
  }
  return home;
}

/** The CLI's environment for that home. */
export function homeEnv(home: IsolatedCodexHome): Record<string, string> {
  return { HOME: home.home, CODEX_HOME: home.codexHome };
}
