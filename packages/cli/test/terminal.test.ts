/**
 * relvo-codex as a person uses it: in a real terminal (tmux), typing keys, reading the screen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedUsage, textStep } from '@relvo-labs/agent-provider-codex/testing';
import { cliArgv, cliEnv, REPO_ROOT, survivorsAfter } from './support/cli.js';
import { scriptedRunSetup } from './support/scripted-config.js';
import { openTerminal, tmuxAvailable, type Terminal } from './support/tmux.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function terminal(args: readonly string[], env: Record<string, string>): Promise<Terminal> {
  const term = await openTerminal([process.execPath, ...cliArgv(args)], env, { cwd: REPO_ROOT });
  cleanups.push(() => term.close());
  return term;
}

// each test waits up to 60 s twice on the screen; the default 30 s test timeout would cut that short
describe('relvo-codex in a terminal (tmux)', { timeout: 150_000 }, () => {
  it('tmux is installed (.ci/run installs it when missing)', () => {
    expect(tmuxAvailable()).toBe(true);
  });

  it('demo: the approval prompt is answered with a key; the screen shows the command ran; exit 0', async () => {
    const { env, mark } = cliEnv();
    const term = await terminal(['demo'], env);
    await term.waitFor(
      (s) => s.includes('Allow it? [y] approve once'),
      'the approval prompt',
      60_000,
    );
    const prompt = await term.screen();
    expect(prompt).toContain('codex asks: Codex requests approval to run');
    expect(prompt).toContain('you decide.');
    await term.sendKeys('y');
    await term.sendKeys('Enter');
    const screen = await term.waitFor(
      (s) => /timings\s+spawn→ready/.test(s),
      'the turn summary',
      60_000,
    );
    expect(screen).toContain('the command ran: relvo-demo.txt now holds "hello from codex"');
    expect(screen).toContain('Done: the command ran');
    expect(screen).toMatch(/turn\s+succeeded/);
    expect(await term.exitStatus()).toBe(0);
    await term.close();
    expect(await survivorsAfter(mark)).toEqual([]);
  });

  it('demo: answering n denies; the screen shows the command did not run', async () => {
    const { env, mark } = cliEnv();
    const term = await terminal(['demo'], env);
    await term.waitFor(
      (s) => s.includes('Allow it? [y] approve once'),
      'the approval prompt',
      60_000,
    );
    await term.sendKeys('n');
    await term.sendKeys('Enter');
    const screen = await term.waitFor(
      (s) => /timings\s+spawn→ready/.test(s),
      'the turn summary',
      60_000,
    );
    expect(screen).toContain('the command did not run');
    expect(screen).toContain('I did not run the command');
    expect(await term.exitStatus()).toBe(0);
    await term.close();
    expect(await survivorsAfter(mark)).toEqual([]);
  });

  it('run: Ctrl-C during a slow turn interrupts it and keeps the session; a second Ctrl-C exits 130', async () => {
    const { env, mark } = cliEnv();
    const setup = await scriptedRunSetup(env);
    cleanups.push(() => setup.cleanup());
    const server = setup.server;
    // a slow model: one delta every 200 ms for a minute, unless interrupted
    server.enqueue(
      textStep(
        Array.from({ length: 300 }, (_, i) => `tick${i} `),
        { delayMs: 200, usage: scriptedUsage(10, 300, 0, 0) },
      ),
    );
    const term = await terminal(['run', 'count slowly', ...setup.runArgs], env);
    await term.waitFor((s) => s.includes('tick3 '), 'streamed text', 60_000);
    await term.sendKeys('C-c');
    const interrupted = await term.waitFor(
      (s) => s.includes('session is still open'),
      'the interrupted turn and the follow-up prompt',
      30_000,
    );
    expect(interrupted).toContain('interrupting the turn');
    expect(interrupted).toMatch(/turn\s+interrupted/);
    // the stream stopped: far fewer than 300 deltas arrived
    expect(interrupted).not.toContain('tick299');
    await term.sendKeys('C-c');
    expect(await term.exitStatus(30_000)).toBe(130);
    expect(await term.screen()).toContain('quitting: disposing the session');
    await term.close();
    expect(await survivorsAfter(mark)).toEqual([]);
    // codex's model connection was dropped by the interrupt; only one request was made
    expect(server.requests).toHaveLength(1);
  });
});
