/**
 * The page's one stream (`GET /api/stream`) over a SQLite file another process writes: the
 * list and the inbox arrive first and then as they change — a session the other process opens,
 * its approval, the answer given through the API — with titles from the first prompt and the
 * live state saying what the session waits for; a quiet log sends nothing more; an owner that
 * dies shows as stalled once its lease lapses (the server's recheck, not the page); the chosen
 * session's envelopes come on the same response. Bad queries are refused before any byte.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startConsole, type ConsoleServer } from '@relvo-labs/agent-runtime/console';
import { jsonLine, RuntimeChild } from '../runtime-child.js';
import { streamEventSchemas } from '../../src/console/schemas.js';
import { onCleanup, sqliteManualRuntime, tempDir, until } from '../support.js';

const WRITER = fileURLToPath(new URL('../fixtures/console-writer-child.ts', import.meta.url));

interface Event {
  readonly event: string;
  readonly data: Record<string, unknown>;
  /** The data parses with the event's schema (schemas.ts, which docs/console.md describes). */
  readonly valid: boolean;
}

/** Reads an SSE response into `events` until the test ends. */
async function openStream(server: ConsoleServer, query = ''): Promise<Event[]> {
  const ctrl = new AbortController();
  onCleanup(() => {
    ctrl.abort();
  });
  const res = await fetch(new URL(`/api/stream${query}`, server.url), {
    headers: { authorization: `Bearer ${server.token}` },
    signal: ctrl.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: Event[] = [];
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  void (async () => {
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += decoder.decode(value, { stream: true });
      for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event !== undefined && data !== undefined) {
          const parsed = JSON.parse(data) as Record<string, unknown>;
          // every event is the shape docs/console.md gives (from the schemas the server uses)
          const schema = streamEventSchemas[event as keyof typeof streamEventSchemas];
          const valid = schema.safeParse(parsed).success;
          events.push({ event, data: parsed, valid });
        }
      }
    }
  })().catch(() => undefined);
  return events;
}

type Row = Record<string, unknown> & { sessionId: string };

function lastRows(events: readonly Event[]): Row[] {
  const last = events.filter((e) => e.event === 'sessions').at(-1);
  return (last?.data['sessions'] ?? []) as Row[];
}

function lastPending(events: readonly Event[]): Record<string, unknown>[] {
  const last = events.filter((e) => e.event === 'inbox').at(-1);
  return (last?.data['pending'] ?? []) as Record<string, unknown>[];
}

/** `recheckMs`: the server's lease recheck; long, only the log's watch can wake the list. */
async function setup(leaseMs: number, recheckMs = 600_000) {
  const dir = tempDir();
  const path = join(dir, 'events.sqlite');
  const runtime = await sqliteManualRuntime(path, leaseMs);
  const writer = new RuntimeChild(WRITER, [path, dir, String(leaseMs)]);
  await writer.line((l) => l === 'READY', 'the writer');
  const server = await startConsole({ runtime, listRecheckMs: recheckMs });
  onCleanup(() => server.close());
  return { runtime, writer, server, dir };
}

describe('the page stream: list and inbox as the log changes', () => {
  it("another process's session, its approval and the answer arrive without a request", async () => {
    const { writer, server } = await setup(5_000);
    const events = await openStream(server);
    await until(() => events.some((e) => e.event === 'sessions'), 'the first list', 10_000);
    expect(events.slice(0, 2).map((e) => e.event)).toEqual(['sessions', 'inbox']);
    expect(lastRows(events)).toEqual([]);

    writer.send(`open ${jsonLine(` Fix the\tflaky \u2028 build \u202e${'x'.repeat(120)}`)}`);
    const id = (await writer.line((l) => l.startsWith('SESSION '), 'opened')).slice(8);
    // the row comes with the session, its title with the first turn
    const titled = (): boolean =>
      lastRows(events).some((r) => r.sessionId === id && r['title'] !== undefined);
    await until(titled, 'the new row with its title', 10_000);
    const row = lastRows(events).find((r) => r.sessionId === id) as Row;
    const title = row['title'] as string;
    expect(title.startsWith('Fix the flaky build <U+202E>xxx')).toBe(true);
    expect(title.endsWith('…')).toBe(true);
    expect(title).not.toMatch(/[\u202e\u2028\t]/);
    expect(row).toMatchObject({ owner: 'elsewhere', liveState: 'running' });

    writer.send('ask 1');
    const interactionId = (await writer.line((l) => l.startsWith('ASKED '), 'asked')).slice(6);
    await until(() => lastPending(events).length === 1, 'the inbox', 10_000);
    expect(lastPending(events)[0]).toMatchObject({ interactionId, owner: 'elsewhere' });
    expect(lastRows(events).find((r) => r.sessionId === id)).toMatchObject({
      liveState: 'waiting',
      waitingFor: 'approval',
    });

    const answered = await fetch(
      new URL(`/api/sessions/${id}/interactions/${interactionId}`, server.url),
      {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'approval', decision: 'approved', mode: 'once' }),
      },
    );
    expect(answered.status).toBe(200);
    await writer.line((l) => l === 'RESPONDED approved', 'the owner answered');
    await until(() => lastPending(events).length === 0, 'the inbox emptied', 10_000);

    // the other process renews its lease meanwhile, which wakes the list: nothing new is sent
    const sent = events.length;
    await new Promise((r) => setTimeout(r, 600));
    expect(events.length).toBe(sent);
    expect(events.filter((e) => !e.valid)).toEqual([]);
  });

  it('an owner that died shows stalled once its lease lapsed, found by the recheck', async () => {
    const { writer, server } = await setup(400, 100);
    writer.send(`open ${jsonLine('a run that will be left open')}`);
    const id = (await writer.line((l) => l.startsWith('SESSION '), 'opened')).slice(8);
    const events = await openStream(server);
    const stateOf = (): unknown => lastRows(events).find((r) => r.sessionId === id)?.['liveState'];
    await until(() => stateOf() === 'running', 'running', 10_000);
    writer.signal('SIGKILL');
    await writer.exited;
    await until(() => stateOf() === 'stalled', 'stalled', 10_000);
    expect(lastRows(events).find((r) => r.sessionId === id)?.['owner']).toBe('none');
  });

  it("the chosen session's envelopes on the same response; bad queries refused", async () => {
    const { runtime, server, dir } = await setup(5_000);
    const session = await runtime.openSession({ workspace: dir });
    await session.submitTurn({ input: 'hello' });
    const events = await openStream(server, `?session=${session.id}&from=2`);
    await until(() => events.some((e) => e.event === 'envelope'), 'envelopes', 10_000);
    const first = events.find((e) => e.event === 'envelope');
    expect(first?.data['sequence']).toBe(2);
    expect(events[0]?.event).toBe('sessions');
    await runtime.closeSession(session.id);
    await until(() => events.some((e) => e.event === 'end'), 'the end of its log', 10_000);
    expect(events.filter((e) => !e.valid)).toEqual([]);
    // the stream stays: the list still follows the log
    await until(
      () => lastRows(events).find((r) => r.sessionId === session.id)?.['liveState'] === 'closed',
      'closed in the list',
      10_000,
    );

    const refused = async (query: string) => {
      const res = await fetch(new URL(`/api/stream${query}`, server.url), {
        headers: { authorization: `Bearer ${server.token}` },
      });
      return [res.status, ((await res.json()) as Record<string, unknown>)['refused']];
    };
    expect(await refused('?session=nope')).toEqual([400, 'query_invalid']);
    expect(await refused('?session=ses_unknown')).toEqual([404, 'unknown_session']);
    expect(await refused(`?session=${session.id}&from=999`)).toEqual([400, 'cursor_out_of_range']);
    expect(await refused('?from=0')).toEqual([400, 'query_invalid']);
    const anonymous = await fetch(new URL('/api/stream', server.url));
    expect(anonymous.status).toBe(401);
  });
});
