/** `relvo-codex serve` as a process: what it prints, the token it takes, what it refuses. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, runCli, startCli, survivorsAfter, until } from './support/cli.js';
import { openCliTerminal } from './support/cli-terminal.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-serve-'));
  dirs.push(dir);
  return dir;
}

describe('relvo-codex serve', () => {
  it('a token of your own is used and never printed; SIGTERM stops it with exit 0', async () => {
    const dir = scratch();
    const token = 'my-own-console-token-0123456789';
    const cli = startCli(['serve', '--no-config', '--cwd', dir, '--ephemeral'], {
      env: { RELVO_CODEX_CONSOLE_TOKEN: token },
    });
    try {
      await until(() => cli.stdout().includes('http://'), 'serve to print its address', 60_000);
      expect(cli.stdout() + cli.stderr()).not.toContain(token);
      const base = /http:\/\/127\.0\.0\.1:\d+\//.exec(cli.stdout())?.[0] as string;
      const ok = await fetch(`${base}api/sessions`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect([ok.status, await ok.json()]).toEqual([200, { sessions: [] }]);
      const opened = await fetch(`${base}api/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(opened.status).toBe(201);
      const wrong = await fetch(`${base}api/sessions`, {
        headers: { authorization: 'Bearer nope' },
      });
      expect(wrong.status).toBe(401);
    } finally {
      process.kill(cli.pid, 'SIGTERM');
    }
    const result = await cli.result;
    expect(result.code).toBe(0);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  }, 90_000);

  it('prints a one-time address, and a fresh one on each Enter; each code works once', async () => {
    const dir = scratch();
    const { env, mark } = cliEnv();
    const term = await openCliTerminal(['serve', '--no-config', '--cwd', dir, '--ephemeral'], env);
    try {
      const codes = (screen: string) =>
        [...screen.matchAll(/#code=([A-Za-z0-9_-]+)/g)].map((m) => m[1]!);
      let screen = await term.waitFor((s) => codes(s).length === 1, 'the first address', 60_000);
      expect(screen).toContain('press Enter for a fresh one');
      await term.sendKeys('Enter');
      screen = await term.waitFor((s) => codes(s).length === 2, 'a fresh address');
      const [first, second] = codes(screen) as [string, string];
      expect(first).not.toBe(second);
      const base = /http:\/\/127\.0\.0\.1:\d+\//.exec(screen)?.[0] as string;
      const trade = async (code: string) => {
        const res = await fetch(`${base}api/exchange`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ code }),
        });
        return [res.status, (await res.json()) as Record<string, unknown>] as const;
      };
      const [status, body] = await trade(second);
      expect([status, typeof body.token]).toEqual([200, 'string']);
      expect(await trade(first)).toEqual([200, body]);
      expect(await trade(first)).toEqual([401, { refused: 'code_spent' }]);
      await term.sendKeys('C-c');
      expect(await term.exitStatus(30_000)).toBe(0);
    } finally {
      await term.close();
    }
    expect(await survivorsAfter(mark)).toEqual([]);
  }, 90_000);

  it.each([
    [['--port', '99999'], {}, '--port must be a number'],
    [['--host', '203.0.113.7'], {}, 'cannot listen there (EADDRNOTAVAIL)'],
    [[], { RELVO_CODEX_CONSOLE_TOKEN: 'short' }, 'RELVO_CODEX_CONSOLE_TOKEN'],
  ])(
    '%j %j → exit 2 naming what to change',
    async (args, env, message) => {
      const dir = scratch();
      const result = await runCli(['serve', '--no-config', '--cwd', dir, '--ephemeral', ...args], {
        env,
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toContain('short');
    },
    60_000,
  );
});
