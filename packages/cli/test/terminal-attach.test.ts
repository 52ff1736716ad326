/**
 * Many processes, one log, as a person sees it (tmux): two `relvo-codex run` on the default
 * event log at once (real codex, each against its own scripted model), `relvo-codex sessions`
 * lists both live while they run, and `relvo-codex attach <second>` in a third terminal approves
 * the second run's shell command, which its own process then carries out. Both runs complete.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { execCommandStep, scriptedUsage, textStep } from '@relvo-labs/agent-provider-codex/testing';
import { cliArgv, cliEnv, REPO_ROOT, runCli, survivorsAfter, until } from './support/cli.js';
import { heldModel, scriptedRunSetup, type ScriptedRunSetup } from './support/scripted-config.js';
import { openTerminal, tmuxAvailable, type Terminal } from './support/tmux.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** argv after `run "<prompt>"` without `--event-log`: the runs use the default log. */
function defaultLogArgs(s: ScriptedRunSetup): string[] {
  return ['--config', s.configFile, '--cwd', s.iso.workspace];
}

interface Listed {
  readonly sessionId: string;
  readonly state: string;
}

async function sessions(env: Record<string, string>): Promise<Listed[]> {
  const r = await runCli(['sessions', '--json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Listed);
}

describe('two runs and an attach on the default log (tmux)', { timeout: 180_000 }, () => {
  it('both runs complete; sessions lists both live; attach approves the second run’s command', async () => {
    expect(tmuxAvailable()).toBe(true);
    const state = mkdtempSync(join(tmpdir(), 'relvo-cli-state-'));
    cleanups.push(() => {
      rmSync(state, { recursive: true, force: true });
    });
    const { env, mark } = cliEnv({
      env: { XDG_STATE_HOME: state },
      unset: ['RELVO_CODEX_EVENT_LOG'],
    });
    const defaultLog = join(state, 'relvo-codex', 'events.sqlite');

    // the first run's model holds its reply until the test lets it go
    const model = heldModel();
    cleanups.push(() => {
      model.release();
    });
    const first = await scriptedRunSetup(env, {}, [], { sleep: model.sleep });
    cleanups.push(() => first.cleanup());
    first.server.enqueue(
      textStep(['first ', 'done.'], { delayMs: 1, usage: scriptedUsage(5, 2, 0, 0) }),
    );
    const second = await scriptedRunSetup(env);
    cleanups.push(() => second.cleanup());
    second.server.enqueue(
      execCommandStep('echo approved-by-attach > attached.txt', { escalate: true }),
      textStep('second done.', { usage: scriptedUsage(5, 2, 0, 0) }),
    );

    const terminal = async (args: readonly string[]): Promise<Terminal> => {
      const term = await openTerminal([process.execPath, ...cliArgv(args)], env, {
        cwd: REPO_ROOT,
      });
      cleanups.push(() => term.close());
      return term;
    };
    const one = await terminal(['run', 'first', ...defaultLogArgs(first)]);
    await until(() => model.held() === 1, 'the first turn at its model', 90_000);
    const [firstListed] = await sessions(env);
    const two = await terminal(['run', 'second', ...defaultLogArgs(second)]);
    await two.waitFor((s) => s.includes('Allow it? [y]'), 'the second run’s approval', 90_000);

    // both live at once, in the default log
    expect(existsSync(defaultLog)).toBe(true);
    const both = await sessions(env);
    expect(both).toHaveLength(2);
    for (const row of both) expect(row.state).not.toContain('process ended');
    const secondId = both.find((r) => r.sessionId !== firstListed?.sessionId)?.sessionId ?? '';
    expect(secondId).toMatch(/^ses_/);

    const three = await terminal(['attach', secondId.slice(0, 12)]);
    const asked = await three.waitFor(
      (s) => s.includes('Allow it? [y]'),
      'attach’s prompt',
      60_000,
    );
    expect(asked).toContain('echo approved-by-attach > attached.txt');
    await three.sendKeys('y', 'Enter');

    // the second run's own process ran the command and finished its turn
    await two.waitFor((s) => s.includes('second done.'), 'the second run’s reply', 60_000);
    expect(readFileSync(join(second.iso.workspace, 'attached.txt'), 'utf8')).toBe(
      'approved-by-attach\n',
    );
    await three.waitFor((s) => s.includes('→ approved (once)'), 'the settlement on attach', 30_000);
    expect(await two.exitStatus(60_000)).toBe(0);
    await three.waitFor(
      (s) => s.includes('the session has ended'),
      'attach seeing the end',
      30_000,
    );
    expect(await three.exitStatus(30_000)).toBe(0);

    model.release();
    await one.waitFor((s) => s.includes('first done.'), 'the first run’s reply', 60_000);
    expect(await one.exitStatus(60_000)).toBe(0);
    for (const term of [one, two, three]) await term.close();
    expect(await survivorsAfter(mark)).toEqual([]);
  });
});
