/**
 * The warm pool through the console: `GET /api/pool` answers the runtime's state in the shape of
 * its schema, behind the token; the page stream sends it after the first list and again when
 * it changes (a warm session taken, and its replacement; one disposed once idle).
 */
import { startConsole, type ConsoleServer } from '@relvo-labs/agent-runtime/console';
import { describe, expect, it } from 'vitest';
import { poolReplySchema } from '../../src/console/schemas.js';
import { FakeClock } from '../fake-clock.js';
import { createManualProvider, warmPoolConfig } from '../manual-provider.js';
import { onCleanup, runtimeOnManual, tempDir, until } from '../support.js';

const IDLE_MS = 60_000;

async function setup() {
  const clock = new FakeClock();
  const manual = createManualProvider();
  const workspace = tempDir();
  const runtime = await runtimeOnManual(manual.provider, {
    config: warmPoolConfig(1, IDLE_MS, workspace),
    clock,
  });
  await until(() => manual.sessions.length === 1, 'the warm session');
  const server = await startConsole({ runtime, workspace });
  onCleanup(() => server.close());
  return { clock, manual, runtime, server };
}

const get = (server: ConsoleServer, path: string, token = true) =>
  fetch(new URL(path, server.url), {
    headers: token ? { authorization: `Bearer ${server.token}` } : {},
  });

/** Each `event: name` of the stream, in order, with its data parsed. */
async function readStream(server: ConsoleServer): Promise<{ event: string; data: unknown }[]> {
  const ctrl = new AbortController();
  onCleanup(() => {
    ctrl.abort();
  });
  const res = await fetch(new URL('/api/stream', server.url), {
    headers: { authorization: `Bearer ${server.token}` },
    signal: ctrl.signal,
  });
  expect(res.status).toBe(200);
  const seen: { event: string; data: unknown }[] = [];
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  void (async () => {
    let text = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += decoder.decode(chunk.value, { stream: true });
      const blocks = text.split('\n\n');
      text = blocks.pop() ?? '';
      for (const block of blocks) {
        const name = /^event: (.+)$/m.exec(block);
        const data = /^data: (.+)$/m.exec(block);
        if (name?.[1] !== undefined && data?.[1] !== undefined) {
          seen.push({ event: name[1], data: JSON.parse(data[1]) });
        }
      }
    }
  })().catch(() => undefined);
  return seen;
}

const warmOf = (data: unknown): number | undefined =>
  poolReplySchema.parse(data).profiles.find((p) => p.profile === 'm')?.warm;

describe('the console pool route', () => {
  it('answers the warm pool in its schema, and only with the token', async () => {
    const { server } = await setup();
    const refused = await get(server, '/api/pool', false);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ refused: 'token_missing' });
    const res = await get(server, '/api/pool');
    expect(res.status).toBe(200);
    expect(poolReplySchema.parse(await res.json())).toEqual({
      profiles: [{ profile: 'm', target: 1, warm: 1, starting: 0, failed: 0, lastError: null }],
    });
  });

  it('the page stream sends the pool after the first list, then as it changes', async () => {
    const { clock, manual, server } = await setup();
    const seen = await readStream(server);
    await until(() => seen.some((e) => e.event === 'pool'), 'the first pool event');
    const order = seen.map((e) => e.event);
    expect(order.slice(0, 2)).toEqual(['sessions', 'inbox']);
    expect(warmOf(seen[order.indexOf('pool')]!.data)).toBe(1);
    const pools = () => seen.filter((e) => e.event === 'pool').map((e) => warmOf(e.data));

    // a turn takes the warm session; the replacement comes back warm
    const opened = await fetch(new URL('/api/sessions', server.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const { sessionId } = (await opened.json()) as { sessionId: string };
    const turn = await fetch(new URL(`/api/sessions/${sessionId}/turns`, server.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'hi' }),
    });
    expect(turn.status).toBe(202);
    expect(manual.sessions[0]!.runs).toHaveLength(1);
    await until(() => manual.sessions.length === 2, 'the replacement');
    await until(() => pools().at(-1) === 1 && pools().includes(0), 'taken, then warm again');

    // idle for idleMs: disposed, and the stream says so without a request
    const before = pools().length;
    clock.advance(IDLE_MS);
    await until(() => pools().length > before, 'the idle disposal');
    expect(pools().at(-1)).toBe(0);
    expect(manual.sessions[1]!.disposeCalls).toBe(1);
  });
});
