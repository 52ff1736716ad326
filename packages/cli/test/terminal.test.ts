/**
 * relvo-codex as a person uses it: in a real terminal (tmux), typing keys, reading the screen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  requestInputItems,
  scriptedUsage,
  textStep,
  type ScriptedModelServer,
} from '@relvo-labs/agent-provider-codex/testing';
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

/**
 * `relvo-codex demo` up to its approval prompt, answered by typing `key` and Enter. `ended()`
 * checks that the demo exits 0 and leaves no process behind.
 */
async function demoAnswered(key: 'y' | 'n'): Promise<{
  prompt: string;
  summary: string;
  ended: () => Promise<void>;
}> {
  const { env, mark } = cliEnv();
  const term = await terminal(['demo'], env);
  const prompt = await term.waitFor(
    (s) => s.includes('Allow it? [y] approve once'),
    'the approval prompt',
    60_000,
  );
  await term.sendKeys(key);
  await term.sendKeys('Enter');
  const summary = await term.waitFor(
    (s) => /timings\s+spawn→ready/.test(s),
    'the turn summary',
    60_000,
  );
  const ended = async (): Promise<void> => {
    expect(await term.exitStatus()).toBe(0);
    await term.close();
    expect(await survivorsAfter(mark)).toEqual([]);
  };
  return { prompt, summary, ended };
}

/** `relvo-codex run "count slowly"` on the scripted model, once `tick3 ` is on the screen. */
async function slowRun(...steps: Parameters<ScriptedModelServer['enqueue']>) {
  const { env, mark } = cliEnv();
  const setup = await scriptedRunSetup(env);
  cleanups.push(() => setup.cleanup());
  const server = setup.server;
  server.enqueue(...steps);
  const term = await terminal(['run', 'count slowly', ...setup.runArgs], env);
  await term.waitFor((s) => s.includes('tick3 '), 'streamed text', 60_000);
  return { term, server, mark };
}

// each test waits up to 60 s twice on the screen; the default 30 s test timeout would cut that short
describe('relvo-codex in a terminal (tmux)', { timeout: 150_000 }, () => {
  it('tmux is installed (.ci/run installs it when missing)', () => {
    expect(tmuxAvailable()).toBe(true);
  });

  it('demo: the approval prompt is answered with a key; the screen shows the command ran; exit 0', async () => {
    const { prompt, summary, ended } = await demoAnswered('y');
    expect(prompt).toContain('codex asks: Codex requests approval to run');
    expect(prompt).toContain('you decide.');
    expect(summary).toContain('the command ran: relvo-demo.txt now holds "hello from codex"');
    expect(summary).toContain('Done: the command ran');
    expect(summary).toMatch(/turn\s+succeeded/);
    await ended();
  });

  it('demo: answering n denies; the screen shows the command did not run', async () => {
    const { summary, ended } = await demoAnswered('n');
    expect(summary).toContain('the command did not run');
    expect(summary).toContain('I did not run the command');
    await ended();
  });

  it('run: Ctrl-C during a slow turn interrupts it and keeps the session; a second Ctrl-C exits 130', async () => {
    // a slow model: one delta every 200 ms for a minute, unless interrupted
    const { term, server, mark } = await slowRun(
      textStep(
        Array.from({ length: 300 }, (_, i) => `tick${i} `),
        { delayMs: 200, usage: scriptedUsage(10, 300, 0, 0) },
      ),
    );
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

  it('run: Ctrl-C interrupts a follow-up turn too, at the first press; Enter then ends (exit 130)', async () => {
    const slow = (word: string) =>
      textStep(
        Array.from({ length: 300 }, (_, i) => `${word}${i} `),
        { delayMs: 100, usage: scriptedUsage(10, 300, 0, 0) },
      );
    const { term, server, mark } = await slowRun(slow('tick'), slow('again'));
    await term.sendKeys('C-c');
    await term.waitFor((s) => s.includes('session is still open'), 'the follow-up prompt', 30_000);
    await term.sendKeys('go on');
    await term.sendKeys('Enter');
    await term.waitFor((s) => s.includes('again3 '), 'the follow-up turn streaming', 60_000);
    await term.sendKeys('C-c');
    const second = await term.waitFor(
      (s) => s.split('session is still open').length === 3,
      'the follow-up turn interrupted and the prompt again',
      30_000,
    );
    // the first press of the second turn interrupted it: nothing quit the session
    expect(second).not.toContain('quitting: disposing the session');
    expect(second).not.toContain('again299');
    await term.sendKeys('Enter');
    expect(await term.exitStatus(30_000)).toBe(130);
    await term.close();
    expect(await survivorsAfter(mark)).toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  it('run - on a terminal says Ctrl-D ends the prompt; what was typed is sent', async () => {
    const { env, mark } = cliEnv();
    const setup = await scriptedRunSetup(env);
    cleanups.push(() => setup.cleanup());
    setup.server.enqueue(textStep('TYPED-ANSWER'));
    const term = await terminal(['run', '-', ...setup.runArgs], env);
    await term.waitFor((s) => s.includes('then Ctrl-D on a new line'), 'the Ctrl-D hint', 30_000);
    await term.sendKeys('typed at the terminal');
    await term.sendKeys('Enter');
    await term.sendKeys('C-d');
    await term.waitFor((s) => s.includes('TYPED-ANSWER'), 'the answer', 60_000);
    expect(await term.exitStatus(30_000)).toBe(0);
    await term.close();
    expect(await survivorsAfter(mark)).toEqual([]);
    expect(JSON.stringify(setup.server.requests[0]?.body)).toContain('typed at the terminal');
  });

  it('run: a line typed while the turn streams is sent as a steer; the next model request ends with it', async () => {
    const { term, server, mark } = await slowRun(
      textStep(
        Array.from({ length: 100 }, (_, i) => `tick${i} `),
        { delayMs: 150 },
      ),
      textStep('STEERED-ANSWER'),
    );
    await term.sendKeys('also say nine');
    await term.sendKeys('Enter');
    const screen = await term.waitFor(
      (s) => /turn\s+succeeded/.test(s) || /timings/.test(s),
      'the steered turn to finish',
      60_000,
    );
    expect(screen).toContain('↳ steer: also say nine');
    expect(screen).toContain('STEERED-ANSWER');
    expect(screen).not.toContain('tick99');
    expect(await term.exitStatus(30_000)).toBe(0);
    await term.close();
    expect(await survivorsAfter(mark)).toEqual([]);
    expect(server.requests).toHaveLength(2);
    const users = requestInputItems(server.requests[1]!)
      .filter((i) => i.role === 'user')
      .map((i) => JSON.stringify(i.content));
    expect(users.at(-2)).toContain('count slowly');
    expect(users.at(-1)).toContain('also say nine');
  });
});
