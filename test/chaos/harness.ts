/**
 * Chaos on real processes: one session per call, through `createCodexProvider()`, with one
 * failure injected at a chosen moment. Each session carries its own marker variable, so what
 * is left after `dispose()` is found by scanning /proc, however it left the process tree.
 */
import {
  isProviderRejection,
  providerRunTerminationSchema,
  type ProviderEventInput,
  type ProviderRun,
  type ProviderRunTermination,
} from '@relvo-labs/agent-provider';
import { createCodexProvider, type CodexProviderSession } from '../../src/index.js';
import { markedProcesses } from '../../bench/support/proc.js';
import {
  DEFAULT_SETTINGS,
  type ChaosSettings,
  type Features,
  type SessionResult,
} from './cases.js';
import { codeOf, drive, until } from './drive.js';
import { CHAOS_MARKER_VAR, setUp, signalLeader } from './session-setup.js';

/** A cell to block on for a few milliseconds (a synchronous pause inside a send hook). */
const pause = new Int32Array(new SharedArrayBuffer(4));

/** Runs one chaos session of `kind` to the end and reports what happened. */
export async function runChaosSession(
  kind: string,
  features: Features,
  settings: ChaosSettings = DEFAULT_SETTINGS,
): Promise<SessionResult> {
  const t0 = Date.now();
  const setup = await setUp(kind, features, settings);
  const { marker } = setup;
  let typed = true;
  let outcome = 'none';
  let run: ProviderRun | undefined;
  let termination: ProviderRunTermination | undefined;
  let settledAt: number | undefined;
  let injectedAt: number | undefined;
  let session: CodexProviderSession | undefined;
  const events: ProviderEventInput[] = [];
  const mark = (): void => {
    injectedAt ??= Date.now();
  };
  let undelivered: NodeJS.Signals | undefined;
  const inject = (signal: NodeJS.Signals, how: { wait?: boolean; required?: boolean } = {}) => {
    mark();
    // at `initialize` the child may not have exec'd codex yet: until then its /proc environ is
    // node's copy without the marker and the leader cannot be found. A miss used to pass
    // silently: the session then counted as surviving a kill that never happened
    const deadline = Date.now() + 2_000;
    while (!signalLeader(marker, signal)) {
      if (how.wait !== true || Date.now() > deadline) {
        if (how.required !== false) undelivered ??= signal;
        return;
      }
      Atomics.wait(pause, 0, 0, 5);
    }
  };
  try {
    const provider = createCodexProvider(setup.options);
    if (kind === 'kill9_leader_at_initialize' || kind === 'kill9_leader_at_thread_start') {
      const phase = kind === 'kill9_leader_at_initialize' ? 'initialize' : 'thread/start';
      setup.beforeSend = (m) => {
        if (m.method === phase) inject('SIGKILL', { wait: true });
      };
    }
    try {
      session = await provider.createSession({
        options: {},
        workspace: { root: setup.workspace, ownership: 'borrowed' },
        sink: { emit: (e) => events.push(e) },
      });
    } catch (error) {
      typed &&= isProviderRejection(error);
      outcome = `open:${codeOf(error)}`;
    }
    if (session !== undefined) {
      const runResult = await drive(kind, session, setup, { mark, inject });
      typed &&= runResult.typed;
      outcome = runResult.outcome;
      run = runResult.run;
      if (run !== undefined) {
        void run.completion.then((t) => {
          termination = t;
          settledAt = Date.now();
        });
        // disposing mid-run is the point of that case
        if (kind !== 'kill9_leader_during_dispose')
          await until(() => termination !== undefined, settings.settleWindowMs);
      }
    }
  } catch (error) {
    typed = false;
    outcome = `harness:${String(error)}`;
  }
  // that case disposes mid-run on purpose: its window is the dispose itself
  const midRunDispose = kind === 'kill9_leader_during_dispose';
  let settledInWindow = run === undefined || termination !== undefined;
  let dispose = 'ok';
  if (session !== undefined) {
    const disposing = session.dispose();
    // the leader may already be gone by itself (stdin EOF): a miss is no failure here
    if (kind === 'kill9_leader_during_dispose') inject('SIGKILL', { required: false });
    try {
      await disposing;
    } catch (error) {
      typed &&= isProviderRejection(error);
      dispose = codeOf(error);
    }
  }
  await new Promise((r) => setImmediate(r));
  const left = markedProcesses(CHAOS_MARKER_VAR, marker);
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  const settledAfterDispose = run === undefined || termination !== undefined;
  if (midRunDispose) settledInWindow = settledAfterDispose;
  if (termination !== undefined) {
    typed &&= providerRunTerminationSchema.safeParse(termination).success;
    outcome = `run:${termination.outcome}${termination.outcome === 'failed' ? `/${termination.error.code}` : ''}`;
  } else if (run !== undefined) outcome = 'unsettled';
  for (const cleanup of setup.cleanups.reverse()) await cleanup();
  return {
    kind,
    outcome:
      undelivered !== undefined
        ? `harness:${undelivered}_not_delivered`
        : settledInWindow
          ? outcome
          : `unsettled→${outcome}`,
    settledInWindow,
    settledAfterDispose,
    settleMs:
      settledAt !== undefined && injectedAt !== undefined && settledInWindow
        ? settledAt - injectedAt
        : undefined,
    typed,
    dispose,
    leaked: left.length,
    leakedComms: [...new Set(left.map((p) => p.comm))],
    ms: Date.now() - t0,
  };
}
