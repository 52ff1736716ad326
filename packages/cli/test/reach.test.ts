/**
 * doctor's model-host check against loopback servers started here (never a real host): a TLS
 * handshake that succeeds, one whose certificate is not trusted, a refused port, a host that
 * never answers the handshake; and that a plain run of `doctor` reports an unreachable host.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { checkReachable, modelBaseUrl } from '../src/codex/reach.js';
import { runCli, survivorsAfter } from './support/cli.js';
import { apiKeyLoggedInHome, homeEnv } from './support/codex-login.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A self-signed certificate for 127.0.0.1, made with openssl for this test only. */
function selfSigned(): { key: string; cert: string; certPath: string } {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-reach-'));
  cleanups.push(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyPath,
      '-out',
      certPath,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8'), certPath };
}

async function listening(server: Server): Promise<number> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => {
          resolve();
        });
      }),
  );
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the model host check', () => {
  it('a loopback TLS server whose certificate nobody vouches for: TLS fails; only the origin is named; nothing sent', async () => {
    const { key, cert } = selfSigned();
    let requests = 0;
    const server = createTlsServer({ key, cert }, (socket) => {
      socket.on('data', () => {
        requests += 1;
      });
      socket.on('error', () => undefined);
    });
    const port = await listening(server);
    const untrusted = await checkReachable(`https://127.0.0.1:${String(port)}/v1?secret=x`, 2_000);
    // a certificate nobody vouches for fails at the TLS stage, with a bounded token
    expect(untrusted).toMatchObject({ checked: true, ok: false, stage: 'tls' });
    expect((untrusted as { error: string }).error).toMatch(/^[A-Z0-9_]+$/);
    expect((untrusted as { url: string }).url).toBe(`https://127.0.0.1:${String(port)}`);
    expect(requests).toBe(0);
  });

  it('a refused port fails at TCP; a host that never finishes the handshake times out', async () => {
    const closed = createTcpServer();
    const port = await listening(closed);
    await new Promise<void>((resolve) =>
      closed.close(() => {
        resolve();
      }),
    );
    expect(await checkReachable(`https://127.0.0.1:${String(port)}`, 2_000)).toMatchObject({
      ok: false,
      stage: 'tcp',
      error: 'ECONNREFUSED',
    });
    // accepts TCP, then says nothing: the TLS handshake never completes
    const silent = createTcpServer(() => undefined);
    const silentPort = await listening(silent);
    expect(await checkReachable(`https://127.0.0.1:${String(silentPort)}`, 300)).toMatchObject({
      ok: false,
      stage: 'timeout',
    });
  });

  it('which URL: OPENAI_BASE_URL, else the built-in provider by login kind, else not checked', () => {
    expect(modelBaseUrl({ OPENAI_BASE_URL: 'https://proxy.internal/v1' }, 'chatgpt')).toBe(
      'https://proxy.internal/v1',
    );
    expect(modelBaseUrl({}, 'apiKey')).toBe('https://api.openai.com/v1');
    expect(modelBaseUrl({}, 'chatgpt')).toBe('https://chatgpt.com/backend-api/codex');
    expect(modelBaseUrl({}, null)).toBeUndefined();
  });
});

describe('relvo-codex doctor: the model host', { timeout: 60_000 }, () => {
  it('a trusted loopback TLS host: "reachable"; a refused one: a problem, exit 1', async () => {
    const { key, cert, certPath } = selfSigned();
    const server = createTlsServer({ key, cert }, (socket) => {
      socket.on('error', () => undefined);
    });
    const port = await listening(server);
    const home = await apiKeyLoggedInHome();
    cleanups.push(() => {
      home.dispose();
    });
    const env = {
      ...homeEnv(home),
      NO_COLOR: '1',
      OPENAI_BASE_URL: `https://127.0.0.1:${String(port)}/v1`,
      NODE_EXTRA_CA_CERTS: certPath,
    };
    const ok = await runCli(['doctor'], { env, unset: ['RELVO_CODEX_EXECUTABLE'] });
    expect(ok.stdout).toContain(
      `model host ok  https://127.0.0.1:${String(port)} reachable (TCP + TLS`,
    );
    expect(ok.code).toBe(0);
    expect(await survivorsAfter(ok.mark)).toEqual([]);

    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
    const refused = await runCli(['doctor'], { env, unset: ['RELVO_CODEX_EXECUTABLE'] });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('tcp failed (ECONNREFUSED)');
    expect(refused.stdout).toContain("the model provider's host https://127.0.0.1:");
    expect(refused.stdout).toContain('cannot be reached');
    expect(refused.stdout).not.toContain('No problem found');
    expect(await survivorsAfter(refused.mark)).toEqual([]);
  });
});
