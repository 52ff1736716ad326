/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * `relvo-codex serve` in a real browser: Debian's Chromium (playwright-core, the system
 * binary), the real codex and the scripted model. A turn streams into the page, its command is
 * approved from the inbox and runs, a reload replays the same timeline from the log; an answer
 * from the page races one from the API and another tab; refusals change nothing.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { execCommandStep, scriptedUsage, textStep } from '@relvo-labs/agent-provider-codex/testing';
import {
  closingStep,
  DEMO_FILE,
  DEMO_FILE_TEXT,
  DEMO_PROMPT,
  openingStep,
} from '../src/demo/script.js';
import { chromiumAvailable, launchChromium, type Browser } from './support/browser.js';
import { cliEnv, REPO_ROOT, survivorsAfter } from './support/cli.js';
import { consoleApi, openConsole, serveConsole, type Served } from './support/console.js';
import { scriptedRunSetup } from './support/scripted-config.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

// RELVO_CONSOLE_SCREENSHOTS=1 refreshes the README's pictures under docs/img
const SHOTS =
  process.env.RELVO_CONSOLE_SCREENSHOTS === '1' ? join(REPO_ROOT, 'docs/img') : undefined;
// markup, a terminal escape and a right-to-left override, as the model might send them
const HOSTILE = '<img src=x onerror="window.__owned=1"><b>bold</b> \u001b[31mred\u202egnp.exe';
const OPENING_TEXT = 'Hi! I am a scripted model on 127.0.0.1, driving the real codex binary.';

const api = consoleApi;

async function eventsOf(
  s: Served,
  sessionId: string,
): Promise<{ payload: Record<string, unknown> }[]> {
  const res = await api(s, 'GET', `/api/sessions/${sessionId}/events`);
  return ((await res.json()) as { events: { payload: Record<string, unknown> }[] }).events;
}

/** The timeline's entries as text, less the notes on who answered (the page's, not the log's). */
function timelineText(page: Page): Promise<string> {
  return page.evaluate(() =>
    [...document.querySelectorAll('#timeline > .entry')]
      .map((entry) => {
        const copy = entry.cloneNode(true) as HTMLElement;
        for (const note of copy.querySelectorAll('.note')) note.remove();
        return copy.textContent;
      })
      .join('\n'),
  );
}

/** What a model request asked for, in short: its input items' types and its last user text. */
function inputOf(body: unknown): string {
  const input = (body as { input?: unknown } | undefined)?.input;
  if (!Array.isArray(input)) return 'no input';
  const items = input as { type?: unknown; role?: unknown; content?: unknown }[];
  const lastUser = items.filter((i) => i.role === 'user').at(-1);
  return `${String(items.length)} items, last user: ${JSON.stringify(lastUser?.content ?? null).slice(0, 120)}`;
}

async function shot(page: Page, name: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-shot-'));
  const file = join(dir, name);
  await page.screenshot({ path: file });
  expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
  if (SHOTS !== undefined) copyFileSync(file, join(SHOTS, name));
  rmSync(dir, { recursive: true, force: true });
}

describe.runIf(chromiumAvailable())(
  'relvo-codex serve in Chromium (real codex, scripted model)',
  () => {
    it('streams a turn, approves its command from the inbox, replays after a reload, races an answer, refuses strangers', async () => {
      const { env, mark } = cliEnv();
      const s = await scriptedRunSetup(env, { sandboxMode: 'read-only', toolActivity: 'redacted' });
      cleanups.push(() => s.cleanup());
      const served = await serveConsole(s.runArgs, env, cleanups);
      const browser: Browser = await launchChromium();
      cleanups.push(() => browser.close());
      const page = await browser.context.newPage();
      const unexpected: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') unexpected.push(m.text());
      });
      await openConsole(page, served);
      // the code left the address bar at once, traded for the token the tab keeps
      expect(page.url()).toBe(served.base);
      expect(served.token.length).toBeGreaterThanOrEqual(16);
      expect(served.cli.stdout()).not.toContain(served.token);

      // a session opened from the page, a turn typed into it: the text arrives in pieces
      s.server.enqueue(openingStep(120));
      await page.click('#new-session');
      await page.locator('#timeline', { hasText: 'session opened' }).waitFor();
      const sessionId = ((await page.locator('#detail-title').textContent()) ?? '').trim();
      expect(sessionId).toMatch(/^ses_/);
      await page.fill('#prompt', DEMO_PROMPT);
      await page.click('#send');
      const partial = await page.waitForFunction(
        (full) => {
          const text = document.querySelector('#timeline .message')?.textContent ?? '';
          return text.length > 0 && text.length < full.length && full.startsWith(text)
            ? text
            : false;
        },
        OPENING_TEXT,
        { polling: 'raf', timeout: 60_000 },
      );
      const seen = await partial.jsonValue();
      expect(typeof seen === 'string' && OPENING_TEXT.startsWith(seen)).toBe(true);
      await page.locator('#timeline .message', { hasText: OPENING_TEXT }).waitFor();

      // the approval waits in the inbox; approved there, the command runs
      const card = page.locator('#inbox .interaction');
      await card.waitFor({ timeout: 60_000 });
      expect(await card.innerText()).toContain(DEMO_FILE);
      await shot(page, 'console-approval.png');
      s.server.enqueue(closingStep(true, 10));
      await card.locator('button[data-answer="approve"]').click();
      await page.locator('#timeline', { hasText: 'turn completed' }).waitFor({ timeout: 60_000 });
      await page.locator('#timeline .message', { hasText: 'Done: the command ran' }).waitFor();
      expect(await page.locator('#timeline .interaction .outcome').innerText()).toBe('approved');
      expect(readFileSync(join(s.iso.workspace, DEMO_FILE), 'utf8').trim()).toBe(DEMO_FILE_TEXT);
      await page.locator('tr.session-row.selected', { hasText: 'completed' }).waitFor();

      // a reload replays the same timeline from the log
      const before = await timelineText(page);
      await page.reload();
      await page.locator('#timeline', { hasText: 'Done: the command ran' }).waitFor();
      let after = '';
      for (let i = 0; i < 100 && after !== before; i++) {
        after = await timelineText(page);
        if (after !== before) await page.waitForTimeout(100);
      }
      expect(after).toBe(before);
      expect(before).toContain(OPENING_TEXT);

      // the race: this tab, a second tab and the API answer the same approval at once
      // a second tab, opened from the page on a fresh code (the printed one is spent)
      const [other] = await Promise.all([
        browser.context.waitForEvent('page'),
        page.click('#new-tab'),
      ]);
      await other.waitForURL(served.base);
      await other.click(`tr.session-row[data-session="${sessionId}"]`);
      s.server.enqueue(
        execCommandStep('touch raced.txt', { callId: 'call_race', escalate: true }),
        textStep(['after the race ', HOSTILE], { usage: scriptedUsage(5, 1, 0, 0) }),
      );
      await page.fill('#prompt', 'race me');
      await page.click('#send');
      const approve = (p: Page) =>
        p.locator('#timeline .interaction:not(.settled-card) button[data-answer="approve"]');
      await approve(page)
        .waitFor({ timeout: 60_000 })
        .catch(async (err: unknown) => {
          // seen rarely in CI: say what the model was asked and what the log holds
          const asked = (await s.server.readRequests()).map(
            (r) => `#${String(r.index)} ${r.path} → ${r.step ?? 'none'} (${inputOf(r.body)})`,
          );
          const logged = (await eventsOf(served, sessionId)).map((e) =>
            e.payload.type === 'diagnostic' || e.payload.type === 'run.tool_activity'
              ? JSON.stringify(e.payload).slice(0, 400)
              : e.payload.type,
          );
          throw new Error(
            `no approval card for the second turn; model requests: ${asked.join('; ')}; log: ${logged.join(', ')}; page: ${await timelineText(page)}`,
            { cause: err },
          );
        });
      await approve(other).waitFor({ timeout: 30_000 });
      const pending = (await eventsOf(served, sessionId)).filter(
        (e) => e.payload.type === 'interaction.requested',
      );
      const interactionId = String(pending.at(-1)?.payload.interactionId);
      // all three fire at once from buttons already in hand: none waits for another to settle
      const [mine, theirs] = await Promise.all([
        approve(page).elementHandle(),
        approve(other).elementHandle(),
      ]);
      const [, , viaApi] = await Promise.all([
        page.evaluate((b) => {
          (b as HTMLButtonElement).click();
        }, mine),
        other.evaluate((b) => {
          (b as HTMLButtonElement).click();
        }, theirs),
        api(served, 'POST', `/api/sessions/${sessionId}/interactions/${interactionId}`, {
          kind: 'approval',
          decision: 'denied',
        }),
      ]);
      const notes = async (p: Page) =>
        p.locator(`#timeline [data-interaction="${interactionId}"] .note`).innerText();
      for (const p of [page, other]) {
        await p.waitForFunction(
          (id) =>
            (document.querySelector(`#timeline [data-interaction="${id}"] .note`)?.textContent ??
              '') !== '',
          interactionId,
        );
      }
      const outcomes = [
        (await notes(page)).startsWith('answered') ? 'won' : 'refused',
        (await notes(other)).startsWith('answered') ? 'won' : 'refused',
        viaApi.status === 200 ? 'won' : 'refused',
      ];
      expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
      for (const [i, p] of [page, other].entries()) {
        if (outcomes[i] === 'refused')
          expect(await notes(p)).toBe('refused: this was already answered (interaction_settled)');
      }
      if (outcomes[2] === 'refused')
        expect(await viaApi.json()).toEqual({ refused: 'interaction_settled' });
      // both views and the log agree on the one answer
      const settled = (await eventsOf(served, sessionId)).filter(
        (e) =>
          e.payload.type === 'interaction.settled' && e.payload.interactionId === interactionId,
      );
      expect(settled).toHaveLength(1);
      const decision = outcomes[2] === 'won' ? 'denied' : 'approved';
      expect(settled[0]?.payload.settlement).toMatchObject({ response: { decision } });
      for (const p of [page, other]) {
        const outcome = p.locator(`#timeline [data-interaction="${interactionId}"] .outcome`);
        await outcome.filter({ hasText: decision }).waitFor();
      }
      await page
        .locator('#timeline .message', { hasText: 'after the race' })
        .waitFor({ timeout: 60_000 });
      // shown as text, never parsed; the escape and the override made visible
      const shown = await page
        .locator('#timeline .message', { hasText: 'after the race' })
        .innerText();
      expect(shown).toContain(
        '<img src=x onerror="window.__owned=1"><b>bold</b> \\x1b[31mred<U+202E>gnp.exe',
      );
      expect(await page.locator('#timeline img, #timeline b').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __owned?: number }).__owned)).toBeUndefined();
      expect(existsSync(join(s.iso.workspace, 'raced.txt'))).toBe(decision === 'approved');

      // interrupt a slow turn from the page: its stream goes silent after the first piece
      s.server.enqueue(textStep(['slow ', 'never sent'], { stallAfterDeltas: 1 }));
      await page.fill('#prompt', 'take your time');
      await page.click('#send');
      await page.locator('#timeline .message', { hasText: 'slow' }).waitFor({ timeout: 60_000 });
      await page.click('#interrupt');
      await page
        .locator('#timeline', { hasText: /turn (cancelled|failed)/ })
        .waitFor({ timeout: 60_000 });

      // strangers: another origin from inside the browser, no token, a wrong token, a foreign Host
      const last = (await eventsOf(served, sessionId)).length;
      const stranger = await browser.context.newPage();
      await stranger.goto('about:blank');
      const fromElsewhere = await stranger.evaluate(
        async ([base, id, token]) => {
          try {
            const res = await fetch(`${base}api/sessions/${id}/turns`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ input: 'hi' }),
            });
            return res.status;
          } catch {
            return 'blocked';
          }
        },
        [served.base, sessionId, served.token] as const,
      );
      expect(fromElsewhere).toBe('blocked');
      const turn = `/api/sessions/${sessionId}/turns`;
      const refused = await Promise.all([
        api(served, 'POST', turn, { input: 'hi' }, { authorization: '' }),
        api(
          served,
          'POST',
          turn,
          { input: 'hi' },
          { authorization: 'Bearer not-the-token-at-all' },
        ),
        api(served, 'POST', turn, { input: 'hi' }, { origin: 'http://attacker.example' }),
      ]);
      expect(refused.map((r) => r.status)).toEqual([401, 401, 403]);
      expect((await eventsOf(served, sessionId)).length).toBe(last);

      // a refused request logs its status; anything else (a CSP violation, an exception) is a fault
      expect(unexpected.filter((t) => !t.startsWith('Failed to load resource'))).toEqual([]);
      await browser.close();
      process.kill(served.cli.pid, 'SIGTERM');
      const result = await served.cli.result;
      expect({ code: result.code, signal: result.signal, stderr: result.stderr }).toMatchObject({
        code: 0,
      });
      expect(await survivorsAfter(mark)).toEqual([]);
    }, 180_000);
  },
);

describe('without Chromium', () => {
  it('the browser test is skipped on a workstation but fails in CI', () => {
    const missing = join(tmpdir(), 'no-such-chromium');
    expect(chromiumAvailable(missing, {})).toBe(false);
    expect(() => chromiumAvailable(missing, { CI: 'true' })).toThrow(/no-such-chromium is missing/);
    expect(chromiumAvailable(process.execPath, { CI: 'true' })).toBe(true);
  });
});
