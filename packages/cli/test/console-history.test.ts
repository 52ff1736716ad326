/// <reference lib="dom" />
/**
 * The browser's history keeps no usable credential: `relvo-codex serve`'s printed address is
 * opened in Chromium on a fresh user-data-dir, the browser is closed, and Chromium's own
 * History database (SQLite, read from a copy) holds the address with its one-time code only —
 * never the token — and that code, replayed, is refused as spent.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium } from './support/browser.js';
import { cliEnv } from './support/cli.js';
import { openConsole, scratchDir, serveConsole } from './support/console.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const scratch = (prefix: string): string => scratchDir(prefix, cleanups);

/** Every file under `dir` whose bytes contain `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, name);
    if (statSync(path).isFile() && readFileSync(path).includes(needle)) found.push(name);
  }
  return found;
}

describe.runIf(chromiumAvailable())('the console address in the browser history', () => {
  it('History holds a spent code, never the token', async () => {
    const { env } = cliEnv();
    const served = await serveConsole(
      ['--no-config', '--cwd', scratch('relvo-hist-ws-'), '--ephemeral'],
      env,
      cleanups,
    );
    const code = /#code=([A-Za-z0-9_-]+)$/.exec(served.pageUrl)?.[1] ?? '';
    expect(code).not.toBe('');
    const profile = scratch('relvo-hist-profile-');
    const browser = await launchChromium({ profile });
    cleanups.push(() => browser.close());
    const page = await browser.context.newPage();
    await openConsole(page, served);
    expect(served.token.length).toBeGreaterThanOrEqual(16);
    await page.locator('#status', { hasText: 'sessions' }).waitFor();
    // the same address again, in a tab of its own: refused, and the page says why
    const again = await browser.context.newPage();
    await again.goto(served.pageUrl);
    await again.locator('#login-why', { hasText: 'code_spent' }).waitFor();
    expect(again.url()).toBe(served.base);
    await browser.close();

    const history = join(profile, 'Default', 'History');
    expect(existsSync(history)).toBe(true);
    const copy = join(scratch('relvo-hist-copy-'), 'History');
    copyFileSync(history, copy);
    const db = new Database(copy, { readonly: true });
    const urls = (db.prepare('SELECT url FROM urls').all() as { url: string }[]).map((r) => r.url);
    db.close();
    const ours = urls.filter((u) => u.startsWith(served.base));
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.some((u) => u.includes(code))).toBe(true);
    for (const u of ours) expect(u === served.base || u === served.pageUrl).toBe(true);
    expect(urls.filter((u) => u.includes(served.token))).toEqual([]);
    // not in the History file at all, nor its journal
    expect(
      filesContaining(join(profile, 'Default'), served.token).filter((f) =>
        f.startsWith('History'),
      ),
    ).toEqual([]);

    const replay = await fetch(new URL('/api/exchange', served.base), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect([replay.status, await replay.json()]).toEqual([401, { refused: 'code_spent' }]);
    // nor anywhere else in the profile (the tab's sessionStorage is not written to disk here)
    expect(filesContaining(profile, served.token)).toEqual([]);
  }, 90_000);
});
