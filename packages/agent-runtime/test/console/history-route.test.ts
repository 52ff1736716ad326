/**
 * The console's earlier turns: `GET /api/sessions/:id/history` pages the provider's own thread
 * (`RuntimeSession.history`), newest first, in the shapes of live turns; a read of the provider
 * session open in this process only, refused by reason token otherwise, and recorded nowhere.
 */
import { describe, expect, it } from 'vitest';
import { startConsole, type ConsoleServer } from '@relvo-labs/agent-runtime/console';
import { history, onCleanup, scriptedRuntime, types } from '../support.js';

async function get(server: ConsoleServer, path: string) {
  const res = await fetch(new URL(path, server.url), {
    headers: { authorization: `Bearer ${server.token}` },
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function withTurns(texts: readonly string[], supportsHistory = true) {
  const rt = await scriptedRuntime({ scripted: { supportsHistory } });
  for (const text of texts) {
    const turn = await rt.session.submitTurn({ input: text });
    rt.scripted.controller.drain();
    await turn.done;
  }
  const server = await startConsole({ runtime: rt.runtime, workspace: rt.workspace });
  onCleanup(() => server.close());
  return { ...rt, server };
}

function inputs(json: Record<string, unknown>): unknown[] {
  const turns = json['turns'] as { input?: { parts: { text?: string }[] } }[];
  return turns.map((t) => t.input?.parts[0]?.text);
}

describe("the console pages a session's thread as its provider keeps it", () => {
  it('newest first, a page at a time down to the oldest, with nothing recorded', async () => {
    const { server, runtime, session } = await withTurns(['one', 'two', 'three']);
    const before = (await history(runtime, session.id)).length;
    const path = `/api/sessions/${session.id}/history`;
    const first = await get(server, `${path}?limit=2`);
    expect(first.status).toBe(200);
    expect(inputs(first.json)).toEqual(['three', 'two']);
    const cursor = first.json['nextCursor'];
    expect(typeof cursor).toBe('string');
    const second = await get(
      server,
      `${path}?limit=2&cursor=${encodeURIComponent(String(cursor))}`,
    );
    expect(inputs(second.json)).toEqual(['one']);
    expect(second.json['nextCursor']).toBeUndefined();
    // how each turn ended, as the provider lists it
    const turns = first.json['turns'] as { events: unknown[]; outcome: string }[];
    expect(turns.map((t) => t.outcome)).toEqual(['succeeded', 'succeeded']);
    expect((await history(runtime, session.id)).length).toBe(before);
  });

  it('bad queries, unknown sessions and providers without history are refused by token', async () => {
    const { server, session } = await withTurns(['one']);
    const path = `/api/sessions/${session.id}/history`;
    for (const query of ['?limit=0', '?limit=101', '?limit=x', '?cursor=']) {
      expect(await get(server, path + query)).toEqual({
        status: 400,
        json: { refused: 'query_invalid' },
      });
    }
    expect(await get(server, '/api/sessions/ses_nothing/history')).toEqual({
      status: 404,
      json: { refused: 'unknown_session' },
    });
    const without = await withTurns(['one'], false);
    expect(await get(without.server, `/api/sessions/${without.session.id}/history`)).toEqual({
      status: 409,
      json: { refused: 'history_unsupported' },
    });
  });

  it('a session no provider session runs here is not read by starting one', async () => {
    const { server, runtime, session } = await withTurns(['one']);
    await session.close();
    expect(await get(server, `/api/sessions/${session.id}/history`)).toEqual({
      status: 409,
      json: { refused: 'session_not_open' },
    });
    expect(types(await history(runtime, session.id)).at(-1)).toBe('session.closed');
  });
});
