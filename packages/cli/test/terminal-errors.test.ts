/**
 * An error as a person sees it in a real terminal (tmux): a typo'd option is one
 * `relvo-codex:` line with the suggestion and what to do, and the exit status is 2.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, survivorsAfter } from './support/cli.js';
import { openCliTerminal } from './support/cli-terminal.js';
import type { Terminal } from './support/tmux.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('relvo-codex errors, in a terminal (tmux)', { timeout: 60_000 }, () => {
  it('a typo in an option: one relvo-codex: line with the suggestion, exit 2', async () => {
    const { env, mark } = cliEnv();
    const term: Terminal = await openCliTerminal(['run', 'hi', '--modle', 'x'], env);
    cleanups.push(() => term.close());
    expect(await term.exitStatus(30_000)).toBe(2);
    const lines = (await term.screen()).split('\n').filter((l) => l.trim() !== '');
    // tmux adds its own "Pane is dead" line once the command has exited
    const own = lines.filter((l) => !l.startsWith('Pane is dead'));
    expect(own).toEqual([
      "relvo-codex: unknown option '--modle'; did you mean --model? (relvo-codex run --help shows the usage)",
    ]);
    // the tmux server carries the mark too: closed first, nothing of the run may be left
    await term.close();
    expect(await survivorsAfter(mark)).toEqual([]);
  });
});
