/**
 * Signals at every phase, in a real terminal (tmux): the demo removes its temp folder and exits
 * 130 (Ctrl-C), 143 (SIGTERM) or 129 (SIGHUP); a Ctrl-C while codex is starting interrupts the
 * turn instead of being lost.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scriptedUsage, textStep } from '@relvo-labs/agent-provider-codex/testing';
import { SessionCtrlC, StartupAborted } from '../src/turn/ctrl-c.js';
import { cliEnv, markedCli, survivorsAfter, until } from './support/cli.js';
import { openCliTerminal } from './support/cli-terminal.js';
import { heldCodex } from './support/held-codex.js';
import { scriptedRunSetup } from './support/scripted-config.js';
import type { Terminal } from './support/tmux.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function open(args: readonly string[], env: Record<string, string>): Promise<Terminal> {
  const term = await openCliTerminal(args, env);
  cleanups.push(() => term.close());
  return term;
}

type Phase = 'start-up' | 'approval' | 'streaming';
type Sig = 'SIGINT' | 'SIGTERM' | 'SIGHUP';
const EXPECTED: Record<Sig, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/** Ctrl-C is typed; SIGTERM and SIGHUP are sent to the CLI's own process. */
async function send(term: Terminal, mark: string, sig: Sig): Promise<void> {
  if (sig === 'SIGINT') {
    await term.sendKeys('C-c');
    return;
  }
  const cli = markedCli(mark);
  if (cli === undefined) throw new Error('the relvo-codex process was not found');
  process.kill(cli.pid, sig);
}

describe('signals in a terminal (tmux)', { timeout: 150_000 }, () => {
  const phases: Phase[] = ['start-up', 'approval', 'streaming'];
  const signals: Sig[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  it.each(phases.flatMap((phase) => signals.map((sig) => [phase, sig] as const)))(
    'demo, %s, %s: the temp folder is removed, the documented exit code, nothing left',
    async (phase, sig) => {
      const tmp = mkdtempSync(join(tmpdir(), 'relvo-signal-tmp-'));
      cleanups.push(() => {
        rmSync(tmp, { recursive: true, force: true });
      });
      const { env, mark } = cliEnv({ env: { TMPDIR: tmp } });
      const held = heldCodex();
      cleanups.push(() => {
        held.release();
        held.cleanup();
      });
      const args = phase === 'start-up' ? ['demo', '--codex', held.path] : ['demo'];
      const term = await open(args, env);
      if (phase === 'start-up') await until(() => held.starting(), 'codex starting', 60_000);
      else if (phase === 'approval')
        await term.waitFor((s) => s.includes('Allow it? [y]'), 'the approval prompt', 60_000);
      else await term.waitFor((s) => s.includes('Hi! '), 'streamed text', 60_000);
      expect(readdirSync(tmp).some((name) => name.startsWith('relvo-demo-'))).toBe(true);
      await send(term, mark, sig);
      held.release();
      expect(await term.exitStatus(60_000)).toBe(EXPECTED[sig]);
      expect(readdirSync(tmp).filter((name) => name.startsWith('relvo-demo-'))).toEqual([]);
      await term.close();
      expect(await survivorsAfter(mark)).toEqual([]);
    },
  );

  it('run: Ctrl-C while codex is starting interrupts the turn (not lost); Enter ends with 130', async () => {
    const { env, mark } = cliEnv();
    const setup = await scriptedRunSetup(env);
    cleanups.push(() => setup.cleanup());
    setup.server.enqueue(textStep('the turn ran on', { usage: scriptedUsage(5, 3, 0, 0) }));
    // the login check's codex goes through; the turn's is held
    const held = heldCodex(30, 1);
    cleanups.push(() => {
      held.release();
      held.cleanup();
    });
    const term = await open(['run', 'hi', ...setup.runArgs, '--codex', held.path], env);
    await until(() => held.starting(), 'codex starting', 60_000);
    await term.sendKeys('C-c');
    await term.waitFor((s) => s.includes('interrupting the turn'), 'the interrupt notice');
    held.release();
    const screen = await term.waitFor(
      (s) => s.includes('session is still open'),
      'the interrupted turn and the follow-up prompt',
      60_000,
    );
    expect(screen).toMatch(/turn\s+interrupted/);
    expect(screen).not.toContain('the turn ran on');
    await term.sendKeys('Enter');
    expect(await term.exitStatus(30_000)).toBe(130);
    await term.close();
    expect(await survivorsAfter(mark)).toEqual([]);
  });
});

describe('the start-up wiring of Ctrl-C and signals', () => {
  it('before the session is attached a press or a signal abandons start-up; afterwards it drives the session', () => {
    const warn = vi.fn();
    const early = new SessionCtrlC(warn);
    early.checkpoint();
    early.press();
    expect(() => {
      early.checkpoint();
    }).toThrow(StartupAborted);
    expect(early.quitCode).toBe(130);

    const proc = new EventEmitter() as unknown as NodeJS.Process;
    const terminated = new SessionCtrlC(warn).install(proc);
    proc.emit('SIGHUP', 'SIGHUP');
    expect(() => {
      terminated.checkpoint();
    }).toThrow(StartupAborted);
    expect(terminated.quitCode).toBe(129);
    terminated.dispose();
    expect(proc.listenerCount('SIGINT')).toBe(0);

    const attached = new SessionCtrlC(warn);
    const driver = { interrupt: vi.fn(() => Promise.resolve()), quit: vi.fn() };
    attached.attach(driver);
    attached.press();
    attached.press();
    attached.checkpoint();
    expect([driver.interrupt.mock.calls.length, driver.quit.mock.calls.length]).toEqual([1, 1]);
  });
});
