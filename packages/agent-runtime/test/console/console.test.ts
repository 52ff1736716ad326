import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startConsole, type ConsoleServer } from '@relvo-labs/agent-runtime/console';
import { history, onCleanup, scriptedRuntime, types } from '../support.js';

const approval = {
  kind: 'approval' as const,
  subject: { category: 'command' as const, summary: 'echo \u001b[31mhi\u202e' },
  allowedModes: ['once' as const],
};

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  readonly json: () => Record<string, unknown>;
}

/** A raw request, so that Host and Origin are exactly what the test says. */
function call(
  console_: ConsoleServer,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; auth?: boolean } = {},
): Promise<Reply> {
  const url = new URL(path, console_.url);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = {
    host: url.host,
    ...(options.auth === false ? {} : { authorization: `Bearer ${console_.token}` }),
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: () => JSON.parse(text) as Record<string, unknown>,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function setup() {
  const rt = await scriptedRuntime({
    scripted: {
      scripts: {
        ask: [
          { type: 'delta', text: 'asking' },
          { type: 'ask', ref: 'a1', request: approval },
          { type: 'usage', usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 } },
          { type: 'succeed' },
        ],
      },
    },
  });
  const server = await startConsole({ runtime: rt.runtime, workspace: rt.workspace });
  onCleanup(() => server.close());
  return { ...rt, server };
}

describe('the console server', () => {
  it('binds 127.0.0.1, serves a self-contained page with a strict CSP and no data', async () => {
    const { server, session } = await setup();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await call(server, 'GET', '/', { auth: false });
    expect(page.status).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(page.text).not.toContain(session.id);
    expect(page.text).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    // no address in the markup or the style; in the script only the markdown library's own
    // strings (an autolink's scheme, its bug-report link), which nothing loads
    expect(page.text.replace(/<script>[\s\S]*<\/script>/, '')).not.toMatch(/https?:\/\//);
    expect(page.text.match(/https?:\/\/[^\s"'`]*/g)).toEqual([
      'http://',
      'https://github.com/markedjs/marked.',
    ]);
  });

  it('lists sessions with their digest and answers exactly once under a race', async () => {
    const { server, session, scripted, runtime } = await setup();
    const started = await call(server, 'POST', `/api/sessions/${session.id}/turns`, {
      body: { input: 'ask' },
    });
    expect(started.status).toBe(202);
    scripted.controller.drain();
    const inbox = (await call(server, 'GET', '/api/inbox')).json() as {
      pending: { interactionId: string; sessionId: string; request: unknown }[];
    };
    expect(inbox.pending).toHaveLength(1);
    const item = inbox.pending[0]!;
    expect(item).toMatchObject({ sessionId: session.id, request: { kind: 'approval' } });
    // two answers at once, even identical ones: one wins, the other is refused
    const path = `/api/sessions/${session.id}/interactions/${item.interactionId}`;
    const answer = { kind: 'approval', decision: 'approved', mode: 'once' };
    const [a, b] = await Promise.all([
      call(server, 'POST', path, { body: answer }),
      call(server, 'POST', path, { body: answer }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((a.status === 409 ? a : b).json()).toEqual({ refused: 'interaction_settled' });
    const late = await call(server, 'POST', path, {
      body: { kind: 'approval', decision: 'denied' },
    });
    expect(late.json()).toEqual({ refused: 'interaction_settled' });
    const settled = (await history(runtime, session.id)).filter(
      (e) => e.payload.type === 'interaction.settled',
    );
    expect(settled).toHaveLength(1);
    scripted.controller.drain();
    await (await import('../support.js')).until(() => session.activeRunId === undefined, 'run end');
    const list = (await call(server, 'GET', '/api/sessions')).json() as {
      sessions: Record<string, unknown>[];
    };
    expect(list.sessions[0]).toMatchObject({
      sessionId: session.id,
      owner: 'this_runtime',
      liveState: 'idle',
      openRunIds: [],
      turns: 1,
      profiles: ['alpha'],
      providers: ['scripted'],
      usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 },
      lastTurn: { state: 'completed' },
      pendingInteractions: [],
    });
    expect((await call(server, 'GET', '/api/inbox')).json()).toEqual({ pending: [] });
  });

  it('streams a session as SSE from a sequence, replayed from the log', async () => {
    const { server, session, runtime } = await setup();
    await session.close();
    const all = await history(runtime, session.id);
    const stream = await call(server, 'GET', `/api/sessions/${session.id}/stream?from=2`);
    expect(stream.headers['content-type']).toContain('text/event-stream');
    const ids = [...stream.text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids).toEqual(all.slice(1).map((e) => e.sequence));
    expect(stream.text).toContain('event: end');
    const unknown = await call(server, 'GET', '/api/sessions/ses_nope/stream');
    expect(unknown.json()).toEqual({ refused: 'unknown_session' });
  });

  it('refuses no token, a wrong token, another origin or host, and the refusal changes nothing', async () => {
    const { server, session, runtime } = await setup();
    const before = await history(runtime, session.id);
    const turn = `/api/sessions/${session.id}/turns`;
    const body = { input: 'ask' };
    const host = new URL(server.url).host;
    const refused = await Promise.all([
      call(server, 'POST', turn, { body, auth: false }),
      call(server, 'POST', turn, { body, headers: { authorization: 'Bearer wrong-token-000000' } }),
      call(server, 'POST', turn, { body, headers: { origin: 'http://evil.example' } }),
      call(server, 'POST', turn, { body, headers: { 'sec-fetch-site': 'cross-site' } }),
      call(server, 'POST', turn, {
        body,
        headers: { host: `evil.example:${new URL(server.url).port}` },
      }),
      call(server, 'GET', '/', { auth: false, headers: { host: 'rebind.example' } }),
      call(server, 'GET', `/api/sessions/${session.id}/stream`, { auth: false }),
      call(server, 'GET', '/api/sessions', { headers: { origin: `http://${host}.evil` } }),
    ]);
    expect(refused.map((r) => [r.status, r.json().refused])).toEqual([
      [401, 'token_missing'],
      [401, 'token_invalid'],
      [403, 'origin_refused'],
      [403, 'origin_refused'],
      [403, 'host_refused'],
      [403, 'host_refused'],
      [401, 'token_missing'],
      [403, 'origin_refused'],
    ]);
    for (const r of refused) expect(r.text).not.toContain(session.id);
    expect(await history(runtime, session.id)).toEqual(before);
    expect(types(before)).not.toContain('turn.started');
    // the same request with the token and the page's own origin goes through
    const ok = await call(server, 'POST', turn, { body, headers: { origin: `http://${host}` } });
    expect(ok.status).toBe(202);
  });

  it('refuses an unknown option key by name, and bad bodies with a bounded reason', async () => {
    const { server, session, runtime } = await setup();
    await expect(startConsole({ runtime, ...({ prot: 1 } as object) })).rejects.toThrow(/prot/);
    const bad = await call(server, 'POST', `/api/sessions/${session.id}/turns`, {
      body: { input: 'x', secret: 'do not echo' },
    });
    expect(bad.json()).toEqual({ refused: 'body_invalid' });
    const nobody = await call(server, 'POST', '/api/sessions/ses_nobody/turns', {
      body: { input: 'x' },
    });
    expect([nobody.status, nobody.json()]).toEqual([404, { refused: 'unknown_session' }]);
    await session.close();
    const ended = await call(server, 'POST', `/api/sessions/${session.id}/turns`, {
      body: { input: 'x' },
    });
    expect([ended.status, ended.json()]).toEqual([409, { refused: 'session_closed' }]);
    const row = (await call(server, 'GET', `/api/sessions/${session.id}`)).json();
    expect(row['session']).toMatchObject({ liveState: 'closed' });
  });
});
