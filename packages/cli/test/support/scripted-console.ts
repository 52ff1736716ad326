/**
 * The console over the scripted provider (no codex), open in Chromium on the one session it
 * has: for the page tests that need given interaction shapes rather than a real run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { InteractionRequestInput } from '@relvo-labs/agent-provider';
import {
  createScriptedProvider,
  type ScriptedProvider,
  type ScriptedProviderOptions,
} from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  type AgentRuntime,
  type RuntimeSession,
  type TurnHandle,
} from '@relvo-labs/agent-runtime';
import { startConsole, type ConsoleServer } from '@relvo-labs/agent-runtime/console';
import { launchChromium } from './browser.js';

export interface ScriptedConsole {
  readonly runtime: AgentRuntime;
  readonly scripted: ScriptedProvider;
  readonly session: RuntimeSession;
  readonly served: ConsoleServer;
  readonly page: Page;
}

export async function scriptedConsole(
  scripts: ScriptedProviderOptions['scripts'],
  cleanups: (() => Promise<void> | void)[],
): Promise<ScriptedConsole> {
  const workspace = mkdtempSync(join(tmpdir(), 'relvo-console-scripted-'));
  cleanups.push(() => {
    rmSync(workspace, { recursive: true, force: true });
  });
  const scripted = createScriptedProvider({ scripts });
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
  return { runtime, scripted, session, served, page };
}

/** One interaction asked in a turn (then `thanks`, then success), its inbox card shown. */
export async function askedInConsole(
  request: InteractionRequestInput,
  cleanups: (() => Promise<void> | void)[],
): Promise<ScriptedConsole & { readonly turn: TurnHandle; readonly card: Locator }> {
  const opened = await scriptedConsole(
    {
      ask: [
        { type: 'ask', ref: 'asked', request },
        { type: 'delta', text: 'thanks' },
        { type: 'succeed' },
      ],
    },
    cleanups,
  );
  const turn = await opened.session.submitTurn({ input: 'ask' });
  opened.scripted.controller.drain();
  const first = opened.page.locator('#inbox .interaction');
  await first.waitFor();
  // this card by its interaction, whatever else arrives in the inbox later
  const id = await first.getAttribute('data-interaction');
  const card = opened.page.locator(`#inbox [data-interaction="${id ?? ''}"]`);
  return { ...opened, turn, card };
}

/** Clicks the card's Answer, lets the turn finish: the settlements the log then holds. */
export async function answerAndSettle(
  asked: Awaited<ReturnType<typeof askedInConsole>>,
): Promise<unknown[]> {
  await asked.card.locator('button[data-answer="answer"]').click();
  await asked.page
    .locator('#timeline .interaction .outcome', { hasText: 'answered' })
    .waitFor({ timeout: 10_000 });
  asked.scripted.controller.drain();
  const { turnState } = await asked.turn.done;
  if (turnState !== 'completed') throw new Error(`the turn ended ${turnState}`);
  return (await asked.runtime.readEvents(asked.session.id))
    .filter((e) => e.payload.type === 'interaction.settled')
    .map((e) => e.payload);
}
