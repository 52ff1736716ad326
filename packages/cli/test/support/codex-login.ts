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

/**
 * A loopback stand-in for the model provider's host, named by `OPENAI_BASE_URL`: doctor checks
 * that host is reachable, and a test must never reach the real one. It accepts connections and
 * counts the bytes sent to it (a reachability check sends none).
 */
export async function loopbackModelHost(): Promise<{
  readonly env: { readonly OPENAI_BASE_URL: string };
  bytesReceived(): number;
  close(): Promise<void>;
}> {
  const { createServer } = await import('node:net');
  let bytes = 0;
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    env: { OPENAI_BASE_URL: `http://127.0.0.1:${String(address.port)}/v1` },
    bytesReceived: () => bytes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}
