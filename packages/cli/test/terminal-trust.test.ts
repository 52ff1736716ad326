/**
 * What a person sees in a real terminal (tmux) when the model or the workspace tries to make
 * the terminal show something other than what is true.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { execCommandStep, scriptedUsage, textStep } from '@relvo-labs/agent-provider-codex/testing';
import { cliEnv, survivorsAfter } from './support/cli.js';
import { openCliTerminal } from './support/cli-terminal.js';
import { scriptedRunSetup } from './support/scripted-config.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe(
  'relvo-codex in a terminal: what the model sends is shown, never obeyed',
  { timeout: 150_000 },
  () => {
    it('an approval whose command hides itself behind \\r and cursor escapes is shown whole', async () => {
      const { env, mark } = cliEnv();
      const setup = await scriptedRunSetup(env);
      cleanups.push(() => setup.cleanup());
      // the command that would run, then a carriage return, "erase line", "cursor up", and a
      // harmless-looking approval line drawn over it
      const hidden =
        'touch spoofed-ran #\r\u001b[2K\u001b[1A\u001b[2K? codex asks: Codex requests approval to run: ls';
      setup.server.enqueue(
        execCommandStep(hidden, { callId: 'call_spoof', escalate: true }),
        textStep('ok', { usage: scriptedUsage(5, 1, 0, 0) }),
      );
      const term = await openCliTerminal(['run', 'list the files', ...setup.runArgs], env);
      cleanups.push(() => term.close());
      const screen = await term.waitFor(
        (s) => s.includes('Allow it? [y] approve once'),
        'the approval prompt',
        60_000,
      );
      expect(screen).toContain('touch spoofed-ran #\\r\\x1b[2K\\x1b[1A\\x1b[2K? codex asks');
      await term.sendKeys('n');
      await term.sendKeys('Enter');
      expect(await term.exitStatus(60_000)).toBe(0);
      expect(existsSync(join(setup.iso.workspace, 'spoofed-ran'))).toBe(false);
      await term.close();
      expect(await survivorsAfter(mark)).toEqual([]);
    });
  },
);
