/**
 * The console page answering a question, in Chromium, over the scripted provider (no codex):
 * the question waits in the inbox, is answered with typed text, and shows its outcome.
 */
/// <reference lib="dom" />
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import { createAgentRuntime } from '@relvo-labs/agent-runtime';
import { startConsole } from '@relvo-labs/agent-runtime/console';
import { chromiumAvailable, launchChromium } from './support/browser.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.runIf(chromiumAvailable())('the console page answers a question', () => {
  it('typed into the inbox, delivered once, shown as answered in the timeline', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'relvo-console-q-'));
    cleanups.push(() => {
      rmSync(workspace, { recursive: true, force: true });
    });
    const scripted = createScriptedProvider({
      scripts: {
        'ask me': [
          { type: 'ask', ref: 'q1', request: { kind: 'question', prompt: 'Which \u202eway?' } },
          { type: 'delta', text: 'thanks' },
          { type: 'succeed' },
        ],
      },
    });
    const runtime = await createAgentRuntime({
      providers: { scripted: () => scripted.provider },
      config: { defaultProfile: 'main', profiles: { main: { provider: 'scripted' } } },
    });
    cleanups.push(() => runtime.shutdown());
    const session = await runtime.openSession({ workspace });
    const served = await startConsole({ runtime });
    cleanups.push(() => served.close());
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const page = await browser.context.newPage();
    await page.goto(served.pageUrl);
    await page.click(`tr.session-row[data-session="${session.id}"]`);
    const turn = await session.submitTurn({ input: 'ask me' });
    scripted.controller.drain();
    const card = page.locator('#inbox .interaction');
    await card.waitFor();
    expect(await card.innerText()).toContain('Which <U+202E>way?');
    await card.locator('input').fill('left');
    await card.locator('button[data-answer="answer"]').click();
    await page
      .locator('#timeline .interaction .outcome', { hasText: 'answered' })
      .waitFor({ timeout: 10_000 });
    scripted.controller.drain();
    expect((await turn.done).turnState).toBe('completed');
    const settled = (await runtime.readEvents(session.id)).filter(
      (e) => e.payload.type === 'interaction.settled',
    );
    expect(settled.map((e) => e.payload)).toMatchObject([
      { settlement: { outcome: 'responded', response: { kind: 'question', answer: 'left' } } },
    ]);
    await page.locator('#timeline', { hasText: 'turn completed' }).waitFor();
    expect(await page.locator('#inbox').innerText()).toContain('Nothing waits');
  }, 60_000);
});
