/// <reference lib="dom" />
/**
 * The console of one process acting on a session another process owns, in Chromium: process A
 * (a child runtime) owns a session with an approval pending on a shared PostgreSQL log; this
 * process (B) owns a session of its own and serves the console. The page lists both with their
 * owner and live state, its inbox holds A's approval, and clicking Approve in B's page is
 * carried out by A (routed through the store's command table) and settled once in the log; a
 * command nobody carries out in time is shown refused, in words with its token.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startConsole } from '@relvo-labs/agent-runtime/console';
import { twoProcesses } from '../../agent-runtime/test/console/two-processes.js';
import { usePgCluster } from '../../agent-runtime/test/pg-suite.js';
import { onCleanup, tempDir } from '../../agent-runtime/test/support.js';
import { chromiumAvailable, launchChromium } from './support/browser.js';

const pg = usePgCluster();
const runs = pg.skip === undefined && chromiumAvailable();

/** Waits, bounded, for the session's row to show this owner and live state. */
async function rowShows(page: Page, id: string, owner: string, live: string): Promise<string> {
  const row = page.locator(
    `tr.session-row[data-session="${id}"][data-owner="${owner}"][data-live-state="${live}"]`,
  );
  await row.waitFor({ timeout: 15_000 });
  return row.innerText();
}

describe.skipIf(!runs)('the console acts on a session another process owns (Chromium)', () => {
  it("B's page answers A's approval once; both sessions listed with owner and live state", async () => {
    const url = pg.cluster().connectionString;
    const schema = 'console_fleet';
    const { a, theirs, runtime } = await twoProcesses(url, schema);
    a.send('ask');
    const interactionId = (await a.line((l) => l.startsWith('ASKED '), 'the ask')).slice(6);
    const session = await runtime.openSession({ workspace: tempDir() });
    await session.submitTurn({ input: 'busy here' });
    const served = await startConsole({ runtime });
    onCleanup(() => served.close());
    const browser = await launchChromium();
    onCleanup(() => browser.close());
    const page = await browser.context.newPage();
    await page.goto(served.pageUrl);

    const mine = session.id;
    expect(await rowShows(page, mine, 'this_runtime', 'running')).toMatch(/running\s+this process/);
    // the session on another host with an approval pending says so (it once read "finished ·
    // ready · running")
    expect(await rowShows(page, theirs, 'elsewhere', 'waiting')).toMatch(
      /waiting for approval\s+another process/,
    );
    await page.click(`tr.session-row[data-session="${theirs}"]`);
    const card = page.locator(
      `#inbox [data-interaction="${interactionId}"][data-owner="elsewhere"]`,
    );
    expect(await card.locator('.label').first().innerText()).toBe(`${theirs} · another process`);
    await card.locator('button[data-answer="approve"]').click();

    await a.line((l) => l === 'RESPONDED approved', "A's provider given the answer");
    const note = page.locator(`#timeline [data-interaction="${interactionId}"] .note`);
    await note.filter({ hasText: 'answered from this page' }).waitFor({ timeout: 15_000 });
    // A's own record of the settlement, streamed to B's page from the log A writes
    await page
      .locator(`#timeline [data-interaction="${interactionId}"] .outcome`, { hasText: 'approved' })
      .waitFor({ timeout: 15_000 });
    const settled = (await runtime.readEvents(theirs)).filter(
      (e) => e.payload.type === 'interaction.settled' && e.payload.interactionId === interactionId,
    );
    expect(settled).toHaveLength(1);
    expect(settled[0]?.payload).toMatchObject({
      settlement: { outcome: 'responded', response: { decision: 'approved' } },
    });
    expect(a.lines.filter((l) => l.startsWith('RESPONDED '))).toEqual(['RESPONDED approved']);
    await rowShows(page, theirs, 'elsewhere', 'running');
    await page.locator('#inbox p.muted', { hasText: 'Nothing waits' }).waitFor();

    // A paused: B's interrupt is withdrawn at B's bound and shown refused, typed
    a.signal('SIGSTOP');
    await page.click('#interrupt');
    await page
      .locator('#notice.refused', { hasText: '(session_unowned)' })
      .waitFor({ timeout: 15_000 });
    a.signal('SIGCONT');
    expect(await page.locator('#notice').innerText()).toBe(
      'refused: no process carried it out in time; it was withdrawn and will not happen (session_unowned)',
    );

    a.send('finish');
    await rowShows(page, theirs, 'elsewhere', 'idle');
    await page.locator('#timeline .entry.settled', { hasText: 'turn completed' }).waitFor();
    expect(a.lines).not.toContain('INTERRUPTED');
    await rowShows(page, mine, 'this_runtime', 'running');
  }, 120_000);
});

if (!runs) {
  describe('the console acts on a session another process owns (Chromium)', () => {
    it.skip(`skipped: ${pg.skip ?? 'Chromium is missing'}`, () => undefined);
  });
}
