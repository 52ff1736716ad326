/**
 * The console page answering questions, in Chromium, over the scripted provider (no codex): a
 * question waits in the inbox, is answered with typed text, and shows its outcome; a question
 * set is answered whole, every question with its own input, and not sent while one is empty.
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

const QUESTION_SET = {
  kind: 'question_set' as const,
  questions: [
    { key: 'name', prompt: 'Your name?' },
    {
      key: 'colour',
      header: 'Colour',
      prompt: 'Pick one',
      choices: [
        { value: 'red', label: 'Red' },
        { value: 'blue', label: 'Blue', description: 'the calm one' },
      ],
    },
    {
      key: 'extras',
      prompt: 'Any of these, or your own',
      choices: [
        { value: 'tests', label: 'Tests' },
        { value: 'docs', label: 'Docs' },
      ],
      multiSelect: true,
      allowFreeText: true,
    },
    { key: 'secret', prompt: 'A passphrase', sensitive: true },
  ],
};

describe.runIf(chromiumAvailable())('the console page answers a question set', () => {
  it('every question with its own input, sent whole, refused while one is empty', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'relvo-console-qs-'));
    cleanups.push(() => {
      rmSync(workspace, { recursive: true, force: true });
    });
    const scripted = createScriptedProvider({
      scripts: {
        'ask many': [
          { type: 'ask', ref: 'qs1', request: QUESTION_SET },
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
    const turn = await session.submitTurn({ input: 'ask many' });
    scripted.controller.drain();
    const card = page.locator('#inbox .interaction');
    await card.waitFor();
    const field = (key: string) => card.locator(`fieldset[data-key="${key}"]`);
    expect(await card.locator('fieldset').count()).toBe(4);
    expect(await field('colour').innerText()).toContain('the calm one');
    expect(await field('secret').locator('input').getAttribute('type')).toBe('password');

    // one question left empty: nothing is sent, the card names it
    await field('name').locator('input').fill('Ada');
    await field('colour').locator('input[value="blue"]').check();
    await field('extras').locator('input[value="tests"]').check();
    await field('extras').locator('input[value="docs"]').check();
    await card.locator('button[data-answer="answer"]').click();
    await card.locator('.note', { hasText: 'answer secret' }).waitFor();
    const settledNow = (await runtime.readEvents(session.id)).filter(
      (e) => e.payload.type === 'interaction.settled',
    );
    expect(settledNow).toHaveLength(0);

    await field('secret').locator('input').fill('open sesame');
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
      {
        settlement: {
          outcome: 'responded',
          response: {
            kind: 'question_set',
            answers: {
              name: { type: 'text', text: 'Ada' },
              colour: { type: 'selection', values: ['blue'] },
              extras: { type: 'selection', values: ['tests', 'docs'] },
              secret: { type: 'text', text: 'open sesame' },
            },
          },
        },
      },
    ]);
  }, 60_000);
});
