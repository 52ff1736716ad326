/**
 * Waits a person can see (tmux): the wait for the model counts its seconds, and `--timeout`
 * bounds a run whose model never answers (exit 124, the turn interrupted, the session closed).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { textStep } from '@relvo-labs/agent-provider-codex/testing';
import { CliExit } from '../src/exit-codes.js';
import { listingOf, openLogForReading, readSession } from '../src/host/log-reader.js';
import { elapsedLabel } from '../src/turn/progress.js';
import { parseDuration, startRunTimeout, TIMEOUT_GRACE_MS } from '../src/turn/run-timeout.js';
import { cliArgv, cliEnv, REPO_ROOT, survivorsAfter } from './support/cli.js';
import { scriptedRunSetup } from './support/scripted-config.js';
import { openTerminal } from './support/tmux.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('run: a wait with a clock, bounded by --timeout (tmux)', { timeout: 90_000 }, () => {
  it('a stalled model: the wait counts seconds; --timeout 6s interrupts, closes, exits 124', async () => {
    const { env, mark } = cliEnv();
    const s = await scriptedRunSetup(env);
    cleanups.push(() => s.cleanup());
    // the response opens and then sends nothing, as a model that stopped answering
    s.server.enqueue(textStep(['never'], { stallAfterDeltas: 0 }));
    const term = await openTerminal(
      [process.execPath, ...cliArgv(['run', 'hello', '--timeout', '6s', ...s.runArgs])],
      env,
      { cwd: REPO_ROOT },
    );
    cleanups.push(() => term.close());
    // the counting line shows until the timeout replaces it: a window of several seconds, so a
    // capture on a loaded machine still finds it
    const waiting = await term.waitFor(
      (t) => /waiting for the model… [1-5] s/.test(t),
      'the wait to count its seconds',
      30_000,
    );
    expect(waiting).toContain('(Ctrl-C interrupts)');
    expect(await term.exitStatus(30_000)).toBe(124);
    const screen = await term.screen();
    expect(screen).toContain('--timeout 6s reached; interrupting the turn and closing the session');
    expect(screen).toMatch(/turn\s+interrupted/);
    expect(screen).not.toContain('session is still open');
    await term.close();
    expect(await survivorsAfter(mark)).toEqual([]);
    const store = openLogForReading(s.eventLog);
    if (store === undefined) throw new Error('no event log');
    try {
      const [summary] = await store.listSessions();
      if (summary === undefined) throw new Error('no session');
      const events = await readSession(store, summary.sessionId);
      const outcomes = events.flatMap((e) =>
        e.payload.type === 'run.finished' ? [e.payload.termination.outcome] : [],
      );
      expect(outcomes).toEqual(['interrupted']);
      expect(listingOf(summary, events).state).toBe('closed');
    } finally {
      await store.close();
    }
  });

  it('a bad --timeout is exit 2 before anything starts', () => {
    for (const bad of ['soon', '-5s', '0', '5d', '']) {
      expect(() => parseDuration(bad)).toThrow(CliExit);
    }
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('12')).toBe(12_000);
  });

  it('the timeout interrupts first, and quits only when the turn did not end in the grace period', () => {
    vi.useFakeTimers();
    cleanups.push(() => {
      vi.useRealTimers();
    });
    const calls: string[] = [];
    const timeout = startRunTimeout(
      '2s',
      { stop: () => calls.push('stop'), quit: () => calls.push('quit') },
      (line) => calls.push(line),
    );
    vi.advanceTimersByTime(1_999);
    expect(calls).toEqual([]);
    expect(timeout?.expired).toBe(false);
    vi.advanceTimersByTime(1);
    expect(timeout?.expired).toBe(true);
    expect(calls.slice(-1)).toEqual(['stop']);
    vi.advanceTimersByTime(TIMEOUT_GRACE_MS);
    expect(calls.at(-1)).toBe('quit');
    timeout?.dispose();
    expect(
      startRunTimeout(undefined, { stop: () => undefined, quit: () => undefined }, () => undefined),
    ).toBeUndefined();
  });

  it('elapsed labels read as seconds, then minutes and seconds', () => {
    expect(elapsedLabel(999)).toBe('0 s');
    expect(elapsedLabel(59_999)).toBe('59 s');
    expect(elapsedLabel(339_000)).toBe('5 min 39 s');
  });
});
