/**
 * The console's connection bounds, on loopback with small injected timeouts: sockets over the
 * cap are closed on arrival and counted; a request slow to send its headers, or its body, gets
 * a 408 and its socket closed; an idle keep-alive socket is closed; an event stream counts
 * against the cap but outlives the request timeout; a normal request still goes through.
 */
import { request, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startConsole, type ConsoleServer } from '@relvo-labs/agent-runtime/console';
import { onCleanup, scriptedRuntime, until } from '../support.js';

const CAP = 16;
// long enough that every socket over the cap arrives while the slow ones still hold it
const HEADERS_MS = 500;
const REQUEST_MS = 800;

interface Held {
  readonly socket: Socket;
  readonly openedAt: number;
  received: string;
  closedAt?: number;
}

function hold(server: ConsoleServer, first: string): Held {
  const url = new URL(server.url);
  const socket = connect(Number(url.port), url.hostname);
  const held: Held = { socket, openedAt: Date.now(), received: '' };
  socket.on('data', (chunk: Buffer) => (held.received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (held.closedAt = Date.now()));
  if (first !== '') socket.write(first);
  onCleanup(() => {
    socket.destroy();
  });
  return held;
}

function stream(
  server: ConsoleServer,
  sessionId: string,
): Promise<{ res: IncomingMessage; text: () => string }> {
  const url = new URL(`/api/sessions/${sessionId}/stream`, server.url);
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${server.token}` } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('error', () => undefined);
      resolve({ res, text: () => text });
    });
    req.on('error', reject);
    req.end();
    onCleanup(() => {
      req.destroy();
    });
  });
}

describe('console connection bounds', () => {
  it('caps sockets, times out slow headers and bodies and idle keep-alives; streams and normal requests go on', async () => {
    const { runtime, session, scripted } = await scriptedRuntime({
      scripted: {
        scripts: { hello: [{ type: 'delta', text: 'still streaming' }, { type: 'succeed' }] },
      },
    });
    const server = await startConsole({
      runtime,
      maxConnections: CAP,
      headersTimeoutMs: HEADERS_MS,
      requestTimeoutMs: REQUEST_MS,
      keepAliveTimeoutMs: 100,
    });
    onCleanup(() => server.close());
    const host = new URL(server.url).host;

    const live = await stream(server, session.id);
    expect(live.res.statusCode).toBe(200);
    // the rest of the cap: requests whose headers never end
    const slow = Array.from({ length: CAP - 1 }, () =>
      hold(server, `GET /api/sessions HTTP/1.1\r\nHost: ${host}\r\n`),
    );
    await until(() => slow.every((h) => h.socket.readyState === 'open'), 'slow sockets to connect');
    // then many more while the cap is full: each closed on arrival, answered with nothing
    const extra = Array.from({ length: 100 }, () => hold(server, ''));
    await until(
      () => extra.every((h) => h.closedAt !== undefined),
      'sockets over the cap to close',
      5_000,
    );
    expect(server.refusals['connection_cap']).toBe(extra.length);
    expect(extra.every((h) => h.received === '')).toBe(true);
    expect(await server.openConnections()).toBeLessThanOrEqual(CAP);

    // the slow ones: a 408 once the headers timeout passed, then closed
    await until(
      () => slow.every((h) => h.closedAt !== undefined),
      'slow headers to time out',
      5_000,
    );
    for (const h of slow) {
      expect(h.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(h.closedAt! - h.openedAt).toBeGreaterThanOrEqual(HEADERS_MS - 20);
    }

    // a body that never arrives (past the guard, read by the handler): the request timeout ends it
    const body = hold(
      server,
      `POST /api/sessions HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${server.token}\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{`,
    );
    await until(() => body.closedAt !== undefined, 'a slow body to time out', 5_000);
    expect(body.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(body.closedAt! - body.openedAt).toBeGreaterThanOrEqual(REQUEST_MS - 20);

    // an idle keep-alive socket is closed after its answer
    const idle = hold(server, `GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive\r\n\r\n`);
    await until(() => idle.closedAt !== undefined, 'an idle keep-alive to close', 5_000);
    expect(idle.received).toMatch(/^HTTP\/1\.1 200 /);

    // the stream, older than the request timeout, still delivers
    expect(live.res.destroyed).toBe(false);
    await session.submitTurn({ input: 'hello' });
    scripted.controller.drain();
    await until(() => live.text().includes('still streaming'), 'the stream to deliver');

    const normal = await fetch(new URL('/api/sessions', server.url), {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(normal.status).toBe(200);
  });
});
