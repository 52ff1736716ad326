/**
 * The page's address carries a one-time code, never the token: traded once for the token
 * (POST /api/exchange, host and origin checked like every request), refused when spent, expired
 * (on an injected clock) or unknown, each with its own reason; another tab asks for a code with
 * the token.
 */
import { describe, expect, it } from 'vitest';
import { startConsole, type ConsoleServer } from '@relvo-labs/agent-runtime/console';
import { onCleanup, scriptedRuntime } from '../support.js';

async function served(now: () => number): Promise<ConsoleServer> {
  const { runtime } = await scriptedRuntime();
  const server = await startConsole({ runtime, codeTtlMs: 60_000, now });
  onCleanup(() => server.close());
  return server;
}

function codeOf(pageUrl: string): string {
  const m = /#code=([A-Za-z0-9_-]+)$/.exec(pageUrl);
  if (m === null) throw new Error('no code in the address');
  return m[1]!;
}

async function trade(
  server: ConsoleServer,
  code: string,
  headers: Record<string, string> = {},
): Promise<[number, Record<string, unknown>]> {
  const res = await fetch(new URL('/api/exchange', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ code }),
  });
  return [res.status, (await res.json()) as Record<string, unknown>];
}

describe('one-time codes for the page address', () => {
  it('the address holds a code, not the token; the code works once', async () => {
    const server = await served(() => 1_000);
    expect(server.pageUrl.startsWith(`${server.url}#code=`)).toBe(true);
    expect(server.pageUrl).not.toContain(server.token);
    const code = codeOf(server.pageUrl);
    expect(await trade(server, code)).toEqual([200, { token: server.token }]);
    expect(await trade(server, code)).toEqual([401, { refused: 'code_spent' }]);
    expect(await trade(server, 'never-issued-code')).toEqual([401, { refused: 'code_invalid' }]);
    expect(server.refusals).toMatchObject({ code_spent: 1, code_invalid: 1 });
  });

  it('expires on the clock: a code a tick short of its period works, one at it is refused', async () => {
    let now = 5_000;
    const server = await served(() => now);
    const first = codeOf(server.pageUrl);
    const second = codeOf(server.newPageUrl());
    now += 59_999;
    expect((await trade(server, first))[0]).toBe(200);
    now += 1;
    expect(await trade(server, second)).toEqual([401, { refused: 'code_expired' }]);
    // long after, a spent or expired code is simply unknown; a fresh one still works
    now += 120_001;
    const third = codeOf(server.newPageUrl());
    expect(await trade(server, first)).toEqual([401, { refused: 'code_invalid' }]);
    expect((await trade(server, third))[0]).toBe(200);
  });

  it('the exchange is guarded like the API: another origin or a cross-site fetch spends nothing', async () => {
    const server = await served(() => 0);
    const code = codeOf(server.pageUrl);
    expect(await trade(server, code, { origin: 'http://attacker.example' })).toEqual([
      403,
      { refused: 'origin_refused' },
    ]);
    expect(await trade(server, code, { 'sec-fetch-site': 'cross-site' })).toEqual([
      403,
      { refused: 'origin_refused' },
    ]);
    const form = await fetch(new URL('/api/exchange', server.url), {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ code }),
    });
    expect([form.status, await form.json()]).toEqual([415, { refused: 'json_required' }]);
    // none of these spent it
    expect((await trade(server, code))[0]).toBe(200);
  });

  it('a fresh code for another tab needs the token', async () => {
    const server = await served(() => 0);
    const url = new URL('/api/codes', server.url);
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{}',
      });
    const refused = await post({});
    expect([refused.status, await refused.json()]).toEqual([401, { refused: 'token_missing' }]);
    const issued = await post({ authorization: `Bearer ${server.token}` });
    const { code } = (await issued.json()) as { code: string };
    expect(issued.status).toBe(201);
    expect(await trade(server, code)).toEqual([200, { token: server.token }]);
  });
});
