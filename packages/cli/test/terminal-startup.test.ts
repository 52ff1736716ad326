/**
 * What a person sees while `relvo-codex run` starts, in a real terminal (tmux): the ✔ only once
 * codex is ready and the turn started, and a status line (not silence) until the first token.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CODEX_APP_SERVER_VERSION } from '@relvo-labs/agent-provider-codex';
import { scriptedUsage, textStep } from '@relvo-labs/agent-provider-codex/testing';
import { cliArgv, cliEnv, REPO_ROOT, standInCodex, survivorsAfter } from './support/cli.js';
import { scriptedRunSetup } from './support/scripted-config.js';
import { openTerminal, type Terminal } from './support/tmux.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function terminal(args: readonly string[], env: Record<string, string>): Promise<Terminal> {
  const term = await openTerminal([process.execPath, ...cliArgv(args)], env, { cwd: REPO_ROOT });
  cleanups.push(() => term.close());
  return term;
}

describe('relvo-codex run starting up, in a terminal (tmux)', { timeout: 150_000 }, () => {
  it('shows a status line until the first token, then the text; the ✔ says codex is ready', async () => {
    const { env, mark } = cliEnv();
    const setup = await scriptedRunSetup(env);
    cleanups.push(() => setup.cleanup());
    // a model that takes its time before the first token
    setup.server.enqueue(
      textStep(['FIRST-TOKEN ', 'and the rest.'], {
        delayMs: 1_500,
        usage: scriptedUsage(3, 4, 0, 0),
      }),
    );
    const term = await terminal(['run', 'take your time', ...setup.runArgs], env);
    const waiting = await term.waitFor(
      (s) => s.includes('waiting for the model'),
      'the status line before the first token',
      60_000,
    );
    expect(waiting).toMatch(/✔ codex \S+ \(\w+\) ready \(\d+ ms\)/);
    expect(waiting).not.toContain('FIRST-TOKEN');
    const done = await term.waitFor((s) => /timings\s+spawn→ready/.test(s), 'the summary', 60_000);
    expect(done).toContain('FIRST-TOKEN and the rest.');
    // the status line went away once the text came
    expect(done).not.toContain('waiting for the model');
    expect(await term.exitStatus()).toBe(0);
    await term.close();
    expect(await survivorsAfter(mark)).toEqual([]);
  });

  it('no ✔ when codex never got to a turn: the spinner ends with ✖', async () => {
    const { env, mark } = cliEnv();
    const setup = await scriptedRunSetup(env);
    cleanups.push(() => setup.cleanup());
    // a codex that names a reviewed release but exits instead of serving the app-server
    const dir = mkdtempSync(join(tmpdir(), 'relvo-cli-broken-'));
    cleanups.push(() => {
      rmSync(dir, { recursive: true, force: true });
    });
    const broken = standInCodex(dir, `codex-cli ${CODEX_APP_SERVER_VERSION}`);
    const term = await terminal(['run', 'hi', ...setup.runArgs, '--codex', broken], env);
    expect(await term.exitStatus(60_000)).not.toBe(0);
    const screen = await term.screen();
    expect(screen).not.toContain('✔');
    expect(screen).toMatch(/✖ codex \S+ \(\w+\) did not start a turn/);
    await term.close();
    expect(await survivorsAfter(mark)).toEqual([]);
  });
});
