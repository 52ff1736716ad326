/**
 * `relvo-codex serve` for the browser tests: started as a process, its printed address (a
 * one-time code, never the token) read from stdout; the token is learnt from the page that
 * traded the code. Stopped with SIGTERM by the clean-up the caller registers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startCli, until, type StartedCli } from './cli.js';

export interface Served {
  readonly cli: StartedCli;
  readonly base: string;
  /** Read from the page once it traded the printed code for it (`tokenFrom`). */
  token: string;
  readonly pageUrl: string;
}

export async function serveConsole(
  args: readonly string[],
  env: Record<string, string>,
  cleanups: (() => Promise<void> | void)[],
): Promise<Served> {
  const cli = startCli(['serve', ...args], { env, timeoutMs: 170_000 });
  cleanups.push(async () => {
    try {
      process.kill(cli.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    await cli.result.catch(() => undefined);
  });
  await until(() => /#code=/.test(cli.stdout()), 'serve to print its address', 60_000);
  const pageUrl = (cli.stdout().split('\n')[0] as string).trim();
  const [base] = pageUrl.split('#') as [string];
  return { cli, base, token: '', pageUrl };
}

/** Opens the printed address and learns the token the page traded its code for. */
export async function openConsole(page: Page, served: Served): Promise<void> {
  await page.goto(served.pageUrl);
  await page.waitForFunction(() => sessionStorage.getItem('relvo.token') !== null);
  served.token = (await page.evaluate(() => sessionStorage.getItem('relvo.token'))) ?? '';
}

export function consoleApi(
  s: Served,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(new URL(path, s.base), {
    method,
    headers: {
      authorization: `Bearer ${s.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A temporary folder, removed by the caller's clean-up. */
export function scratchDir(prefix: string, cleanups: (() => Promise<void> | void)[]): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}
