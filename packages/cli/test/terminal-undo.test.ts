/**
 * `/undo` at the follow-up prompt, in a real terminal (tmux) on the real codex and the scripted
 * model: the interrupted turn is taken out of the conversation (the next model request lacks
 * it), the screen says the files stay as they are, and the prompt asks again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { requestInputItems, textStep } from '@relvo-labs/agent-provider-codex/testing';
import { cliArgv, cliEnv, REPO_ROOT, runCli, survivorsAfter } from './support/cli.js';
import { scriptedRunSetup } from './support/scripted-config.js';
import { openTerminal } from './support/tmux.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('undo in a terminal (tmux)', { timeout: 150_000 }, () => {
  it('run: Ctrl-C, then /undo takes the turn back; the follow-up is sent without it', async () => {
    const { env, mark } = cliEnv();
    const setup = await scriptedRunSetup(env);
    cleanups.push(() => setup.cleanup());
    setup.server.enqueue(
      textStep(
        Array.from({ length: 300 }, (_, i) => `tick${i} `),
        { delayMs: 200 },
      ),
      textStep('FRESH-ANSWER'),
    );
    const term = await openTerminal(
      [process.execPath, ...cliArgv(['run', 'UNDONE-QUESTION', ...setup.runArgs])],
      env,
      { cwd: REPO_ROOT },
    );
    cleanups.push(() => term.close());
    await term.waitFor((s) => s.includes('tick3 '), 'streamed text', 60_000);
    await term.sendKeys('C-c');
    await term.waitFor((s) => s.includes('/undo takes it back'), 'the follow-up prompt', 30_000);
    await term.sendKeys('/undo');
    await term.sendKeys('Enter');
    const undone = await term.waitFor(
      (s) => s.split('/undo takes it back').length === 3,
      'the undo line and the prompt again',
      30_000,
    );
    expect(undone).toContain('undone: the last turn is out of the conversation');
    expect(undone).toContain('files it changed stay as they are');
    await term.sendKeys('fresh question');
    await term.sendKeys('Enter');
    await term.waitFor((s) => s.includes('FRESH-ANSWER'), 'the follow-up answer', 60_000);
    expect(await term.exitStatus(30_000)).toBe(0);
    await term.close();
    expect(await survivorsAfter(mark)).toEqual([]);
    const sent = JSON.stringify(requestInputItems(setup.server.requests[1]!));
    expect(sent).toContain('fresh question');
    expect(sent).not.toContain('UNDONE-QUESTION');
    expect(sent).not.toContain('tick1 ');
    // the log's timeline shows the undo where it happened
    const session = /session (ses_[0-9a-f]+)/.exec(undone)?.[1] ?? '';
    const eventLog = setup.runArgs[setup.runArgs.indexOf('--event-log') + 1] ?? '';
    const log = await runCli(['log', session, '--event-log', eventLog, '--no-color'], { env });
    expect(log.code).toBe(0);
    expect(log.stdout).toMatch(
      /undone: the last turn taken back \(files kept\)[\s\S]*fresh question/,
    );
  });
});
