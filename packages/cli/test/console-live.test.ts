/// <reference lib="dom" />
/**
 * The console's list and inbox are live, not polled (Debian's Chromium): another runtime
 * process writes to the SQLite log the console reads — opens sessions, asks for an approval,
 * finishes a run — and the page shows each change while its network log holds one stream and
 * no periodic request. Sessions are told apart by their titles; the state filter narrows the
 * table; the table fits its column at 1280 px and reflows on a narrow screen; an approval is
 * given from the inbox by keys in a focus order that reads inbox, filter, table; axe finds no
 * serious or critical violation. With RELVO_CONSOLE_SCREENSHOTS=1 it refreshes the docs'
 * picture of the page.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startConsole } from '@relvo-labs/agent-runtime/console';
import { jsonLine, RuntimeChild } from '../../agent-runtime/test/runtime-child.js';
import { onCleanup, sqliteManualRuntime, tempDir } from '../../agent-runtime/test/support.js';
import { axeViolations, chromiumAvailable, launchChromium, serious } from './support/browser.js';
import { REPO_ROOT } from './support/cli.js';

const WRITER = fileURLToPath(
  new URL('../../agent-runtime/test/fixtures/console-writer-child.ts', import.meta.url),
);
const SHOTS =
  process.env.RELVO_CONSOLE_SCREENSHOTS === '1' ? join(REPO_ROOT, 'docs/img') : undefined;

const TITLES = ['Fix the flaky build on main', 'Write the release notes', 'Tidy up the README'];

function row(page: Page, id: string) {
  return page.locator(`tr.session-row[data-session="${id}"]`);
}

async function shot(page: Page): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-shot-'));
  const file = join(dir, 'console-sessions.png');
  // ids and times differ between runs: masked, so the picture is the same each time
  await page.screenshot({
    path: file,
    mask: [
      page.locator('time.rel'),
      page.locator('#sessions .sid'),
      page.locator('#inbox .label').first(),
    ],
    maskColor: '#e6e8eb',
  });
  expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
  if (SHOTS !== undefined) copyFileSync(file, join(SHOTS, 'console-sessions.png'));
  rmSync(dir, { recursive: true, force: true });
}

describe.runIf(chromiumAvailable())('the console page is live, not polled (Chromium)', () => {
  it("shows another process's sessions and approval as they happen, over one stream", async () => {
    const dir = tempDir();
    const path = join(dir, 'events.sqlite');
    const runtime = await sqliteManualRuntime(path);
    const writer = new RuntimeChild(WRITER, [path, dir, '5000']);
    await writer.line((l) => l === 'READY', 'the writer');
    const served = await startConsole({ runtime });
    onCleanup(() => served.close());
    const browser = await launchChromium();
    onCleanup(() => browser.close());
    const page = await browser.context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      requests.push(`${r.method()} ${url.pathname}${url.search}`);
    });
    await page.goto(served.pageUrl);
    await page.locator('#status', { hasText: 'live' }).waitFor({ timeout: 15_000 });

    // the other process works; the page follows without asking
    const ids: string[] = [];
    for (const title of TITLES) {
      writer.send(`open ${jsonLine(title)}`);
      await writer.line((l) => l.startsWith('SESSION ') && !ids.includes(l.slice(8)), 'opened');
      ids.push((writer.lines.filter((l) => l.startsWith('SESSION ')).at(-1) ?? '').slice(8));
    }
    for (const [i, id] of ids.entries()) {
      await row(page, id)
        .locator('.row-title', { hasText: TITLES[i] as string })
        .waitFor({ timeout: 15_000 });
    }
    writer.send('ask 2');
    const asked = (await writer.line((l) => l.startsWith('ASKED '), 'asked')).slice(6);
    writer.send('finish 3');
    const card = page.locator(`#inbox [data-interaction="${asked}"]`);
    await card.waitFor({ timeout: 15_000 });
    expect(
      await row(page, ids[1] as string)
        .locator('.state-cell')
        .innerText(),
    ).toMatch(/waiting for approval\s+another process/);
    await row(page, ids[2] as string)
      .locator('.badge', { hasText: 'idle' })
      .waitFor({ timeout: 15_000 });

    // three seconds of a page left open: not one request (the old page asked every second)
    const before = requests.length;
    await page.waitForTimeout(3_000);
    expect(requests.slice(before)).toEqual([]);
    const api = requests.filter((r) => r.includes('/api/'));
    expect(api).toEqual(['POST /api/exchange', 'GET /api/stream']);

    // the table fits its column at 1280 px
    const fits = await page.evaluate(() => {
      const wrap = document.querySelector('.table-wrap') as HTMLElement;
      return wrap.scrollWidth <= wrap.clientWidth;
    });
    expect(fits).toBe(true);

    // the filter narrows the table and counts what each choice shows
    await page.selectOption('#state-filter', 'waiting');
    expect(await page.locator('tr.session-row').count()).toBe(1);
    expect(await row(page, ids[1] as string).count()).toBe(1);
    expect(await page.locator('#state-filter option[value="attention"]').innerText()).toBe(
      'needing attention (1)',
    );
    await page.selectOption('#state-filter', 'all');
    expect(await page.locator('tr.session-row').count()).toBe(3);

    // choose a session: its timeline comes on the stream that replaces the first
    await row(page, ids[0] as string)
      .locator('.row-title')
      .click();
    await page.locator('#timeline .entry.you', { hasText: TITLES[0] as string }).waitFor();
    expect(requests.filter((r) => r.startsWith('GET /api/stream'))).toEqual([
      'GET /api/stream',
      `GET /api/stream?session=${ids[0] as string}&from=1`,
    ]);

    const violations = await axeViolations(page);
    expect(serious(violations)).toEqual([]);
    await shot(page);

    // the focus order a screen reader follows: the inbox's card, then the filter, then the table
    await page.locator('#new-tab').focus();
    const order: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Tab');
      order.push(
        await page.evaluate(() => {
          const a = document.activeElement as HTMLElement;
          if (a.dataset.interaction !== undefined) return 'card';
          return a.id !== '' ? a.id : a.className;
        }),
      );
    }
    const at = (name: string): number => order.indexOf(name);
    expect(at('card')).toBeGreaterThanOrEqual(0);
    expect(at('card')).toBeLessThan(at('state-filter'));
    expect(at('state-filter')).toBeLessThan(at('row-title'));

    // approve by keys: `i` goes to the first card, `a` approves it; the owner gets it
    await page.locator('#prompt').focus();
    await page.keyboard.press('i');
    expect(
      await page.evaluate(() => document.activeElement?.getAttribute('data-interaction')),
    ).toBe(null);
    await page.evaluate(() => {
      (document.activeElement as HTMLElement).blur();
    });
    await page.keyboard.press('i');
    expect(
      await page.evaluate(() => (document.activeElement as HTMLElement).dataset.interaction),
    ).toBe(asked);
    await page.keyboard.press('a');
    await writer.line((l) => l === 'RESPONDED approved', 'the owner given the approval');
    await page.locator('#inbox p.muted', { hasText: 'Nothing waits' }).waitFor();
    await row(page, ids[1] as string)
      .locator('.badge', { hasText: 'running' })
      .waitFor({ timeout: 15_000 });
    expect(requests.filter((r) => r.startsWith('POST /api/sessions/'))).toEqual([
      `POST /api/sessions/${ids[1] as string}/interactions/${asked}`,
    ]);

    // a narrow screen: the rows reflow, nothing runs off to the side
    await page.setViewportSize({ width: 420, height: 820 });
    const narrow = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth <= window.innerWidth,
      cell: getComputedStyle(document.querySelector('#sessions td') as HTMLElement).display,
    }));
    expect(narrow).toEqual({ page: true, cell: 'block' });
  }, 90_000);
});
