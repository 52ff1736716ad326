/// <reference lib="dom" />
/**
 * The console's timeline shows the work of a real codex turn (scripted model, Debian's
 * Chromium): a plan whose steps get checked in place, a command as a shell line with its exit
 * code, a patch as a per-file diff with its added lines marked, a collapsed reasoning summary
 * and the answer drawn as markdown. Every entry is what the codex adapter published and the log
 * holds; the page is reloaded and draws the same structure again from the log.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  execCommandStep,
  reasoningStep,
  updatePlanStep,
} from '@relvo-labs/agent-provider-codex/testing';
import { axeViolations, chromiumAvailable, launchChromium, serious } from './support/browser.js';
import { cliEnv, REPO_ROOT, survivorsAfter, until } from './support/cli.js';
import { openConsole, serveConsole } from './support/console.js';
import { heldModel, scriptedRunSetup } from './support/scripted-config.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

// RELVO_CONSOLE_SCREENSHOTS=1 refreshes the docs' picture of the timeline
const SHOTS =
  process.env.RELVO_CONSOLE_SCREENSHOTS === '1' ? join(REPO_ROOT, 'docs/img') : undefined;

const NOTE = 'notes/hello.txt';
const PATCH = `apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: ${NOTE}\n+Hello from the timeline\n+Second line\n*** End Patch\nEOF\n`;
const STEPS = ['Look around', 'Write the note', 'Report back'];
const plan = (done: number) =>
  STEPS.map((step, i) => ({
    step,
    status:
      i < done
        ? ('completed' as const)
        : i === done
          ? ('in_progress' as const)
          : ('pending' as const),
  }));
const ANSWER = 'Done: **wrote** `notes/hello.txt`; see [the notes](https://example.com/notes).';

/** The rendered structure the test asserts, read from the page in one go. */
function structure(page: Page) {
  return page.evaluate(() => {
    const q = (s: string) => document.querySelector<HTMLElement>(`#timeline ${s}`);
    const all = (s: string) => [...document.querySelectorAll<HTMLElement>(`#timeline ${s}`)];
    const command = all('.entry.tool-command').at(0);
    return {
      commands: all('.entry.tool-command').length,
      shellLine: command?.querySelector('.shell-line')?.textContent,
      shellLines: all('.entry.tool-command .shell-line').map((n) => n.textContent),
      exit: command?.querySelector('.exit')?.textContent,
      commandOpen: command?.querySelector('details')?.open,
      hasDuration: command?.querySelector('.duration') !== null,
      outputSize: command?.querySelector('.output-size')?.textContent,
      diffs: all('.entry.diff').length,
      diffPaths: all('.entry.diff .diff-file').map((f) => f.dataset.path),
      added: all('.entry.diff ins.diff-add').map((n) => n.textContent),
      plans: all('.entry.plan').length,
      steps: all('.entry.plan li.plan-step').map((li) => ({
        status: li.dataset.status,
        checked: li.querySelector('input')?.checked,
      })),
      reasoningOpen: document.querySelector<HTMLDetailsElement>(
        '#timeline .entry.reasoning details',
      )?.open,
      reasoningBold: q('.entry.reasoning strong')?.textContent,
      answerBold: all('.entry.message strong').map((n) => n.textContent),
      link: q('.entry.message a')?.getAttribute('href'),
      linkTarget: q('.entry.message .md-target')?.textContent,
      internalShown: all('.entry.internal').filter((n) => n.offsetParent !== null).length,
      internal: all('.entry.internal').length,
      card: {
        outcome: q('.interaction .outcome')?.textContent,
        answer: q('.interaction .answer-line')?.textContent,
        by: q('.interaction .answered-by')?.textContent,
        command: q('.interaction .detail .command')?.textContent,
      },
      settled: all('.entry.settled').at(-1)?.textContent,
    };
  });
}

async function shot(page: Page, name: string, workspace: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-shot-'));
  const file = join(dir, name);
  // what differs between runs (ids, times, durations, the temporary workspace's folder) is
  // masked: the picture is the same each time
  await page.locator('#detail').screenshot({
    path: file,
    mask: [
      page.locator('#detail-title'),
      page.locator('#detail-summary'),
      page.locator('#timeline .duration'),
      page.locator('#timeline .answered-by'),
      page.locator('#timeline .detail-row', { hasText: workspace }),
    ],
    maskColor: '#e6e8eb',
  });
  expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
  if (SHOTS !== undefined) copyFileSync(file, join(SHOTS, name));
  rmSync(dir, { recursive: true, force: true });
}

describe.runIf(chromiumAvailable())('the console timeline of a real codex turn', () => {
  it('a plan checked in place, a shell line with its exit code, a diff with added lines, collapsed reasoning', async () => {
    const { env, mark } = cliEnv();
    // the model waits before its second answer until the test has seen the first plan
    const model = heldModel();
    cleanups.push(() => {
      model.release();
    });
    const s = await scriptedRunSetup(
      env,
      {
        sandboxMode: 'workspace-write',
        toolActivity: 'redacted',
        events: { plan: true, diff: 'patch', reasoningSummary: true },
      },
      [],
      { sleep: model.sleep },
    );
    cleanups.push(() => s.cleanup());
    s.server.enqueue(
      updatePlanStep(plan(0), { explanation: 'Three steps', callId: 'call_plan_1' }),
      // asks to leave the sandbox: approved from the timeline's card
      {
        ...execCommandStep('echo timeline-check', { callId: 'call_echo', escalate: true }),
        delayMs: 1,
      },
      // a script with a quote of its own keeps codex's wrapper: the shell is named, not hidden
      execCommandStep("printf '%s' quoted", { callId: 'call_quoted' }),
      execCommandStep(PATCH, { callId: 'call_patch' }),
      updatePlanStep(plan(3), { callId: 'call_plan_2' }),
      reasoningStep(['**Checking** the note', 'It reads well'], { answer: ANSWER }),
    );
    const served = await serveConsole(s.runArgs, env, cleanups);
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const page = await browser.context.newPage();
    const faults: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') faults.push(m.text());
    });
    page.on('pageerror', (e) => faults.push(e.message));
    await page.setViewportSize({ width: 1280, height: 1500 });
    await openConsole(page, served);
    await page.click('#new-session');
    await page.locator('#timeline', { hasText: 'session opened' }).waitFor();
    await page.fill('#prompt', 'write a note and report');
    await page.click('#send');
    // the first plan: its first step in progress, not checked
    await until(() => model.held() > 0, 'the model to hold its second answer', 90_000);
    const steps = page.locator('#timeline .entry.plan li.plan-step');
    await steps.first().and(page.locator('[data-status="in_progress"]')).waitFor();
    expect(await steps.first().locator('input').isChecked()).toBe(false);
    const firstStep = await steps.first().elementHandle();
    model.release();
    await page
      .locator('#timeline .interaction button[data-answer="approve"]')
      .click({ timeout: 90_000 });
    await page.locator('#timeline', { hasText: 'turn completed' }).waitFor({ timeout: 90_000 });
    // the same step, updated where it is: now checked
    expect(
      await firstStep.evaluate(
        (li) => li.isConnected && li.querySelector('input')?.checked === true,
      ),
    ).toBe(true);
    expect(readFileSync(join(s.iso.workspace, NOTE), 'utf8')).toBe(
      'Hello from the timeline\nSecond line\n',
    );

    const expected = {
      commands: 2,
      shellLine: '$ echo timeline-check',
      exit: 'exit 0',
      commandOpen: false,
      hasDuration: true,
      outputSize: '15 B of output',
      diffs: 1,
      diffPaths: [NOTE],
      added: ['+Hello from the timeline', '+Second line'],
      plans: 1,
      steps: STEPS.map(() => ({ status: 'completed', checked: true })),
      reasoningOpen: false,
      reasoningBold: 'Checking',
      answerBold: ['wrote'],
      link: 'https://example.com/notes',
      linkTarget: ' <https://example.com/notes>',
      internalShown: 0,
    };
    const drawn = await structure(page);
    expect(drawn).toMatchObject(expected);
    expect(drawn.internal).toBeGreaterThan(0);
    // the settled card keeps its subject and says what was answered, and by whom
    expect(drawn.card).toMatchObject({
      outcome: 'approved',
      answer: 'approved once',
    });
    // the approval shows the command as codex will run it, wrapper and all
    expect(drawn.card.command).toContain("-lc 'echo timeline-check'");
    expect(drawn.card.by).toMatch(
      /^by a host's answer, recorded before the agent got it at \d\d:\d\d:\d\d UTC$/,
    );
    expect(drawn.shellLines[1]).toMatch(/^\$ (ba|z)?sh -l?c .*printf.*quoted/);
    expect(drawn.shellLines[1]).not.toContain('<outside-workspace>');
    // the turn's tokens on the line that closes it
    expect(drawn.settled).toMatch(/^turn completed · tokens: \d+ in · \d+ out · \d+ total$/);
    // what the provider published of the work names workspace paths relative to it (the
    // approval card shows its subject whole, the folder it runs in too)
    const work = await page
      .locator('#timeline > .entry:not(.interaction)')
      .evaluateAll((nodes) => nodes.map((n) => n.textContent).join('\n'));
    expect(work).toContain(NOTE);
    expect(work).not.toContain(s.iso.workspace);
    // the details toggle shows the runtime's own records
    await page.click('.internal-toggle');
    expect((await structure(page)).internalShown).toBe(drawn.internal);
    await page.click('.internal-toggle');
    // the timeline of a real turn, cards and diffs included, reads without a serious violation
    expect(serious(await axeViolations(page))).toEqual([]);
    await shot(page, 'console-timeline.png', s.iso.workspace);

    // the same structure again from the log alone
    await page.reload();
    await page.locator('#timeline', { hasText: 'turn completed' }).waitFor({ timeout: 30_000 });
    expect(await structure(page)).toMatchObject(expected);

    expect(faults.filter((t) => !t.startsWith('Failed to load resource'))).toEqual([]);
    await browser.close();
    process.kill(served.cli.pid, 'SIGTERM');
    expect((await served.cli.result).code).toBe(0);
    expect(await survivorsAfter(mark)).toEqual([]);
  }, 180_000);
});
