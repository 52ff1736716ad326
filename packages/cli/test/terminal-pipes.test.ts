/**
 * relvo-codex in a shell pipeline, in a real terminal (tmux): what is piped in reaches the model,
 * and a reader that goes away (`| head`) ends the run quietly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { textStep } from '@relvo-labs/agent-provider-codex/testing';
import { cliArgv, cliEnv, REPO_ROOT, survivorsAfter } from './support/cli.js';
import { scriptedRunSetup } from './support/scripted-config.js';
import { openTerminal, type Terminal } from './support/tmux.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** `sh -c script` in a terminal, where `$CLI` is the CLI's command line. */
async function shell(script: string, env: Record<string, string>): Promise<Terminal> {
  const cli = [process.execPath, ...cliArgv([])].map(quote).join(' ');
  const term = await openTerminal(
    ['sh', '-c', `CLI="${cli.replace(/"/g, '\\"')}"; ${script}`],
    env,
    {
      cwd: REPO_ROOT,
    },
  );
  cleanups.push(() => term.close());
  return term;
}

async function setup() {
  const { env, mark } = cliEnv();
  const s = await scriptedRunSetup(env);
  cleanups.push(() => s.cleanup());
  return { ...s, env, mark, args: s.runArgs.map(quote).join(' ') };
}

describe('relvo-codex in a pipeline (tmux)', { timeout: 120_000 }, () => {
  it('stdin and a prompt: the model receives the prompt, then stdin as a <stdin> block', async () => {
    const s = await setup();
    s.server.enqueue(textStep('REVIEWED'));
    const term = await shell(
      `printf 'diff --git a/x b/x\\n+PIPED-LINE\\n' | eval "$CLI run 'Review this' ${s.args.replace(/"/g, '\\"')}"; echo "exit=$?"`,
      s.env,
    );
    const screen = await term.waitFor((t) => /exit=\d+/.test(t), 'the run to end', 60_000);
    expect(screen).toContain('exit=0');
    expect(screen).toContain('follows the prompt as a <stdin> block');
    expect(screen).toContain('REVIEWED');
    const sent = JSON.stringify(s.server.requests[0]?.body);
    expect(sent).toContain(
      JSON.stringify('Review this\n\n<stdin>\ndiff --git a/x b/x\n+PIPED-LINE\n</stdin>').slice(
        1,
        -1,
      ),
    );
    await term.close();
    expect(await survivorsAfter(s.mark)).toEqual([]);
  });
});
