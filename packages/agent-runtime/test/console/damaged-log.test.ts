/**
 * A session whose stored log is damaged, streamed from the console over real HTTP: the stream
 * ends with a `log_corrupt` refusal, and the console keeps answering its other routes meanwhile.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startConsole, type ConsoleServer } from '@relvo-labs/agent-runtime/console';
import { damagedRuntime, sqliteBacking } from '../log-damage.js';
import { onCleanup, tempDir } from '../support.js';

function get(server: ConsoleServer, path: string): Promise<{ status: number; text: string }> {
  const url = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        headers: { host: url.host, authorization: `Bearer ${server.token}` },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    req.setTimeout(5_000, () => req.destroy(new Error(`GET ${path}: no answer within 5 s`)));
    req.on('error', reject);
    req.end();
  });
}

describe('the console and a damaged log', () => {
  it('ends the stream with log_corrupt and keeps answering the other routes', async () => {
    const { runtime, sessionId, sequence } = await damagedRuntime(sqliteBacking(), 'missing');
    const healthy = await runtime.openSession({ workspace: tempDir() });
    const server = await startConsole({ runtime, workspace: tempDir() });
    onCleanup(() => server.close());

    const [stream, list, one] = await Promise.all([
      get(server, `/api/sessions/${sessionId}/stream`),
      get(server, '/api/sessions'),
      get(server, `/api/sessions/${healthy.id}/events`),
    ]);
    expect(stream.status).toBe(200);
    expect(stream.text).toContain('event: refused\ndata: {"refused":"log_corrupt"}');
    expect(stream.text).not.toContain('event: end');
    expect(one.status).toBe(200);
    // the list still names every session; the damaged one says so instead of failing the list
    expect(list.status).toBe(200);
    const rows = (JSON.parse(list.text) as { sessions: Record<string, unknown>[] }).sessions;
    const byId = new Map(rows.map((r) => [r.sessionId, r]));
    expect(byId.get(healthy.id)?.damaged).toBeUndefined();
    expect(byId.get(sessionId)?.damaged).toBe('log_corrupt');
    // a read of the damaged part is refused, typed, and the next request is answered too
    const damaged = await get(server, `/api/sessions/${sessionId}/events?from=${sequence}`);
    expect(damaged.text).toBe('{"refused":"log_corrupt"}');
    expect((await get(server, '/api/inbox')).status).toBe(200);
  });
});
