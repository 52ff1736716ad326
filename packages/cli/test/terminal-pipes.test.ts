/**
 * relvo-codex in a shell pipeline, in a real terminal (tmux): what is piped in reaches the model,
 * and a reader that goes away (`| head`) ends the run quietly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedUsage, textStep } from '@relvo-labs/agent-provider-codex/testing';
import { listingOf, openLogForReading, readSession } from '../src/host/log-reader.js';
import { cliArgv, cliEnv, REPO_ROOT, survivorsAfter } from './support/cli.js';
import { scriptedRunSetup } from './support/scripted-config.js';
import { openTerminal, type Terminal } from './support/tmux.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** `bash -c script` in a terminal, where `$CLI` is the CLI's command line. */
async function shell(script: string, env: Record<string, string>): Promise<Terminal> {
  const cli = [process.execPath, ...cliArgv([])].map(quote).join(' ');
  const term = await openTerminal(
    ['bash', '-c', `CLI="${cli.replace(/"/g, '\\"')}"; ${script}`],
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

  /** What the event log says about the only session: its listing and how its turn ended. */
  async function recorded(eventLog: string) {
    const store = openLogForReading(eventLog);
    if (store === undefined) throw new Error('no event log');
    try {
      const [summary, ...more] = await store.listSessions();
      expect(more).toEqual([]);
      if (summary === undefined) throw new Error('no session');
      const events = await readSession(store, summary.sessionId);
      const finished = events.flatMap((e) =>
        e.payload.type === 'run.finished' ? [e.payload.termination.outcome] : [],
      );
      return { listing: listingOf(summary, events), finished };
    } finally {
      await store.close();
    }
  }

  /** A slow model (a delta every 100 ms for 30 s) read by `reader`; the CLI's own exit status. */
  async function slowRunInto(reader: string, json: boolean) {
    const s = await setup();
    s.server.enqueue(
      textStep(
        Array.from({ length: 300 }, (_, i) => `tick${i} `),
        { delayMs: 100, usage: scriptedUsage(10, 300, 0, 0) },
      ),
    );
    const flags = json ? '--json ' : '';
    const term = await shell(
      `eval "$CLI run ${flags}'count slowly' ${s.args.replace(/"/g, '\\"')}" | ${reader}; echo "exit=\${PIPESTATUS[0]}"`,
      s.env,
    );
    const screen = await term.waitFor((t) => /exit=\d+/.test(t), 'the run to end', 60_000);
    await term.close();
    expect(await survivorsAfter(s.mark)).toEqual([]);
    return { screen, ...(await recorded(s.eventLog)) };
  }

  it('`| head -c 5`: no stack, exit 141, the turn recorded interrupted and the session closed', async () => {
    const { screen, listing, finished } = await slowRunInto('head -c 5', false);
    expect(screen).toContain('exit=141');
    expect(screen).toContain('tick0');
    expect(screen).not.toContain('EPIPE');
    expect(screen).not.toMatch(/\bat .*\(.*:\d+:\d+\)/);
    expect(screen).not.toContain('tick299');
    expect(finished).toEqual(['interrupted']);
    expect(listing.state).toBe('closed');
  });

  it('`--json | head -2`: two envelopes, then exit 141 without a stack; the log says interrupted, closed', async () => {
    const { screen, listing, finished } = await slowRunInto('head -2', true);
    expect(screen).toContain('exit=141');
    expect(screen).toContain('"sequence":1');
    expect(screen).not.toContain('"sequence":3');
    expect(screen).not.toContain('EPIPE');
    expect(finished).toEqual(['interrupted']);
    expect(listing.state).toBe('closed');
  });
});
