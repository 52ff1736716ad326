/// <reference lib="dom" />
/**
 * Every approval kind the codex adapter raises, on its card in Chromium (scripted provider, the
 * request shapes copied from the adapter's own tests): a file change lists each change and
 * where it writes, an MCP tool call names server, tool and arguments, a URL elicitation its
 * server, message and address. The detail comes before the buttons; control and bidi
 * characters stay visible, never interpreted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { chromiumAvailable } from './support/browser.js';
import { scriptedConsole } from './support/scripted-console.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const FILE_CHANGE = {
  kind: 'approval' as const,
  subject: {
    category: 'file_write' as const,
    summary:
      'WARNING: writes OUTSIDE the workspace. Codex requests approval to change 2 files: ' +
      'update notes/a.txt, add ../outside/f.txt (OUTSIDE the workspace)',
    detail: {
      changes: [
        { path: 'notes/a\u202etxt.exe', kind: 'update' },
        { path: '../outside/f.txt', kind: 'add', outsideWorkspace: true },
      ],
      changeCount: 2,
      outsideWorkspace: true,
    },
  },
  allowedModes: ['once' as const],
  riskHint: 'high' as const,
};

const TOOL_CALL = {
  kind: 'approval' as const,
  subject: {
    category: 'tool' as const,
    summary: 'Codex requests approval to call the tool "plain" of the MCP server "elicit"',
    detail: { server: 'elicit', tool: 'plain', arguments: '{"n":1,"to":"\u001b[2Jeveryone"}' },
  },
  allowedModes: ['once' as const, 'session' as const],
  riskHint: 'medium' as const,
};

const OPEN_URL = {
  kind: 'approval' as const,
  subject: {
    category: 'other' as const,
    summary: 'The MCP server "elicit" asks you to open a web page: https://example.invalid/consent',
    detail: { server: 'elicit', message: 'Please consent', url: 'https://example.invalid/consent' },
  },
  allowedModes: ['once' as const],
  riskHint: 'medium' as const,
};

async function detailThenButtons(card: Locator): Promise<boolean> {
  return card.evaluate((node) => {
    const detail = node.querySelector('.detail');
    const buttons = [...node.querySelectorAll('button')];
    if (detail === null || buttons.length === 0) return false;
    const bottom = detail.getBoundingClientRect().bottom;
    return buttons.every(
      (b) =>
        (detail.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0 &&
        b.getBoundingClientRect().top >= bottom,
    );
  });
}

describe.runIf(chromiumAvailable())('console cards for every approval kind', () => {
  it('a file change, an MCP tool call and a URL elicitation, each whole before its buttons', async () => {
    const { scripted, session, page } = await scriptedConsole(
      {
        kinds: [
          { type: 'ask', ref: 'a1', request: FILE_CHANGE },
          { type: 'ask', ref: 'a2', request: TOOL_CALL },
          { type: 'ask', ref: 'a3', request: OPEN_URL },
          { type: 'succeed' },
        ],
      },
      cleanups,
    );
    const turn = await session.submitTurn({ input: 'kinds' });
    scripted.controller.drain();

    const expected: [string, string[]][] = [
      [
        'notes/a',
        [
          'changes (2)',
          'update notes/a<U+202E>txt.exe',
          'add ../outside/f.txt  (OUTSIDE the workspace)',
          'reaches OUTSIDE the workspace',
          'may be approved: once',
        ],
      ],
      [
        'elicit',
        [
          'server',
          'tool',
          'plain',
          '{"n":1,"to":"\\x1b[2Jeveryone"}',
          'for the rest of the session',
        ],
      ],
      ['consent', ['Please consent', 'https://example.invalid/consent']],
    ];
    for (const [marker, texts] of expected) {
      const card = page.locator('#inbox .interaction', { hasText: marker });
      await card.waitFor({ timeout: 10_000 });
      const text = (await card.textContent()) ?? '';
      for (const t of texts) expect(text).toContain(t);
      expect(await detailThenButtons(card)).toBe(true);
      await card.locator('button[data-answer="approve"]').click();
      await card.waitFor({ state: 'detached', timeout: 10_000 });
      scripted.controller.drain();
    }
    expect((await turn.done).turnState).toBe('completed');
    expect(
      await page.locator('#timeline .interaction .outcome', { hasText: 'approved' }).count(),
    ).toBe(3);
  }, 60_000);
});
