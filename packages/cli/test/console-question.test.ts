/**
 * The console page answering questions, in Chromium, over the scripted provider (no codex): a
 * question waits in the inbox, is answered with typed text, and shows its outcome; a question
 * set is answered whole, every question with its own input, and not sent while one is empty.
 */
/// <reference lib="dom" />
import { afterEach, describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.js';
import { scratchDir } from './support/console.js';
import { answerAndSettle, askedInConsole } from './support/scripted-console.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.runIf(chromiumAvailable())('the console page answers a question', () => {
  it('typed into the inbox, delivered once, shown as answered in the timeline', async () => {
    const asked = await askedInConsole({ kind: 'question', prompt: 'Which \u202eway?' }, cleanups);
    const { page, card } = asked;
    expect(await card.innerText()).toContain('Which <U+202E>way?');
    await card.locator('input').fill('left');
    expect(await answerAndSettle(asked)).toMatchObject([
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
    const asked = await askedInConsole(QUESTION_SET, cleanups);
    const { runtime, session, card } = asked;
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

    // another session asks meanwhile: the inbox grows, and this card keeps what was typed
    const other = await runtime.openSession({
      workspace: scratchDir('relvo-console-qs-', cleanups),
    });
    await other.submitTurn({ input: 'ask' });
    asked.scripted.controller.drain();
    await asked.page.locator('#inbox .interaction').nth(1).waitFor();
    expect(await field('name').locator('input').inputValue()).toBe('Ada');
    expect(await field('extras').locator('input[value="docs"]').isChecked()).toBe(true);
    await field('secret').locator('input').fill('open sesame');
    expect(await answerAndSettle(asked)).toMatchObject([
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
