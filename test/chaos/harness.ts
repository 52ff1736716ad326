/**
 * Chaos on real processes: one session per call, through `createCodexProvider()`, with one
 * failure injected at a chosen moment. Each session carries its own marker variable, so what
 * is left after `dispose()` is found by scanning /proc, however it left the process tree.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  isProviderRejection,
  providerRunTerminationSchema,
  type ProviderEventInput,
  type ProviderRun,
  type ProviderRunTermination,
} from '@relvo-labs/agent-provider';
import { CODEX_APP_SERVER_VERSION } from '../../src/constants.js';
import {
  createCodexProvider,
  createCodexStdioTransport,
  type CodexFrameSink,
  type CodexProviderOptions,
  type CodexProviderSession,
} from '../../src/index.js';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  execCommandStep,
  requireCodexBinary,
  ScriptedModelServer,
  scriptedUsage,
  textStep,
} from '../../src/testing/index.js';
import { markedProcesses } from '../../bench/support/proc.js';
import { testEnv } from '../support/processes.js';

export const CHAOS_MARKER_VAR = 'RELVO_CHAOS_SESSION';
const PEER = fileURLToPath(new URL('./peer.cjs', import.meta.url));

/** What a case needs from the adapter beyond issue-15 items 3–7. */
export type Needs = 'watchdog' | 'ownedSweep';

export interface CaseKind {
  readonly name: string;
  readonly needs?: Needs;
}

export const CASE_KINDS: readonly CaseKind[] = [
  { name: 'kill9_leader_at_initialize' },
  { name: 'kill9_leader_at_thread_start' },
  { name: 'kill9_leader_at_turn_start' },
  { name: 'kill9_leader_mid_stream' },
  { name: 'kill9_leader_pending_approval' },
  { name: 'kill9_leader_during_dispose' },
  { name: 'kill9_descendant_command' },
  { name: 'sigstop_leader_interrupt_dispose', needs: 'watchdog' },
  { name: 'stdout_closed_while_alive' },
  { name: 'descendant_holds_pipe' },
  { name: 'sigterm_ignored' },
  { name: 'model_closes_mid_stream' },
  { name: 'model_stalls_mid_stream', needs: 'watchdog' },
  { name: 'model_never_answers', needs: 'watchdog' },
  { name: 'peer_acks_never_completes', needs: 'watchdog' },
  { name: 'command_setsid_daemon', needs: 'ownedSweep' },
  { name: 'busy_shell_snapshot', needs: 'ownedSweep' },
];

export interface Features {
  /** The provider accepts `stallTimeoutMs` (the stall watchdog exists). */
  readonly watchdog: boolean;
  /** The app-server's environment carries the owner marker every descendant inherits. */
  readonly ownedSweep: boolean;
}

export interface ChaosSettings {
  /** Stall timeout given to the provider when the watchdog exists. */
  readonly stallTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** How long a run may take to settle on its own before the case calls it unsettled. */
  readonly settleWindowMs: number;
}

export const DEFAULT_SETTINGS: ChaosSettings = {
  stallTimeoutMs: 2_000,
  requestTimeoutMs: 10_000,
  settleWindowMs: 12_000,
};

export interface SessionResult {
  readonly kind: string;
  /** `open:<code>`, `start:<code>`, `run:<outcome>[/<code>]` or `unsettled`. */
  readonly outcome: string;
  /** The run settled by itself within the window (or no run was ever started). */
  readonly settledInWindow: boolean;
  /** The run (if any) settled at the latest once dispose() resolved. */
  readonly settledAfterDispose: boolean;
  /** ms from the injected failure to the run's settlement (undefined: no run / not settled). */
  readonly settleMs: number | undefined;
  /** Every rejection was a ProviderRejection and every termination valid per the SPI schema. */
  readonly typed: boolean;
  /** `ok` or the dispose() rejection code. */
  readonly dispose: string;
  /** Marked processes alive right after dispose() resolved (killed afterwards by the harness). */
  readonly leaked: number;
  readonly leakedComms: readonly string[];
  readonly ms: number;
}

type Hook = (message: { method?: unknown }) => void;

/** One object per session: the transport hook reads `beforeSend` from it, so never copy it. */
interface Setup {
  readonly marker: string;
  readonly workspace: string;
  options: CodexProviderOptions;
  server: ScriptedModelServer | undefined;
  readonly cleanups: (() => Promise<void> | void)[];
  beforeSend: Hook | undefined;
}

function leaderPid(marker: string): number | undefined {
  // the app-server is our own child leading its own group; codex starts each command in a
  // session of its own too (pid = pgid, same marker), and once PIDs have wrapped (pid_max is
  // 32,768 here) such a command can be listed before the leader: a 1,000-session run killed one
  // at turn/start instead of the leader, and the turn then succeeded
  return markedProcesses(CHAOS_MARKER_VAR, marker).find(
    (p) => p.pid === p.pgid && p.ppid === process.pid,
  )?.pid;
}

function signalLeader(marker: string, signal: NodeJS.Signals): boolean {
  const pid = leaderPid(marker);
  if (pid === undefined) return false;
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** A TCP listener that accepts the model request and never sends a byte back. */
async function blackHole(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
    s.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}

async function setUp(kind: string, features: Features, settings: ChaosSettings): Promise<Setup> {
  const marker = randomUUID();
  const cleanups: (() => Promise<void> | void)[] = [];
  const iso = createIsolatedCodexHome('relvo-chaos-');
  cleanups.push(() => {
    iso.dispose();
  });
  const env = iso.env(testEnv({ [CHAOS_MARKER_VAR]: marker }));
  const common: CodexProviderOptions = {
    requestTimeoutMs: settings.requestTimeoutMs,
    approvals: 'bridge',
    ...(features.watchdog ? { stallTimeoutMs: settings.stallTimeoutMs } : {}),
  };
  const setup: Setup = {
    marker,
    workspace: iso.workspace,
    options: common,
    server: undefined,
    cleanups,
    beforeSend: undefined,
  };
  const hookedTransport =
    (executable: string, extraArgs: readonly string[], childEnv: Record<string, string>) =>
    ({ cwd }: { cwd: string }) => {
      const t = createCodexStdioTransport({ executable, extraArgs, cwd, env: childEnv });
      return {
        start: (sink: CodexFrameSink) => {
          t.start(sink);
        },
        close: () => t.close(),
        resourceUsage: () => t.resourceUsage(),
        send(message: unknown) {
          setup.beforeSend?.(message as { method?: unknown });
          return t.send(message);
        },
      };
    };

  if (
    [
      'stdout_closed_while_alive',
      'descendant_holds_pipe',
      'sigterm_ignored',
      'peer_acks_never_completes',
    ].includes(kind)
  ) {
    const mode = {
      stdout_closed_while_alive: 'stdout_closed',
      descendant_holds_pipe: 'holds_pipe',
      sigterm_ignored: 'sigterm_ignored',
      peer_acks_never_completes: 'ack_never_complete',
    }[kind]!;
    setup.options = {
      ...common,
      transport: hookedTransport(process.execPath, [PEER], {
        ...env,
        CHAOS_PEER: mode,
        CHAOS_UA_VERSION: CODEX_APP_SERVER_VERSION,
      }),
    };
    return setup;
  }

  const binary = requireCodexBinary({ kind: 'native' });
  let baseUrl: string;
  let server: ScriptedModelServer | undefined;
  if (kind === 'model_never_answers') {
    const hole = await blackHole();
    cleanups.push(hole.close);
    baseUrl = hole.url;
  } else {
    server = await ScriptedModelServer.start();
    const s = server;
    cleanups.push(() => s.close());
    baseUrl = server.baseUrl;
  }
  if (kind === 'busy_shell_snapshot') {
    // a login shell snapshot that leaves a child behind, outside the app-server's group
    writeFileSync(join(iso.home, '.bashrc'), 'sleep 600 >/dev/null 2>&1 &\n');
    writeFileSync(join(iso.home, '.bash_profile'), '. ~/.bashrc\n');
  }
  setup.server = server;
  setup.options = {
    ...common,
    transport: hookedTransport(binary.path, codexConfigArgs({ baseUrl }), env),
  };
  return setup;
}

const slowText = (): ReturnType<typeof textStep> =>
  textStep(
    Array.from({ length: 40 }, (_, i) => `tick${i} `),
    { delayMs: 100, usage: scriptedUsage(5, 1, 0, 0) },
  );

async function until(predicate: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

/** A cell to block on for a few milliseconds (a synchronous pause inside a send hook). */
const pause = new Int32Array(new SharedArrayBuffer(4));

function codeOf(error: unknown): string {
  return isProviderRejection(error) ? error.agentError.code : 'untyped';
}

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

interface Driven {
  readonly outcome: string;
  readonly typed: boolean;
  readonly run: ProviderRun | undefined;
}

interface Injector {
  /** Marks the moment the failure happens (settle time is measured from it). */
  readonly mark: () => void;
  /** Marks and signals the app-server leader. */
  readonly inject: (signal: NodeJS.Signals) => void;
}

async function drive(
  kind: string,
  session: CodexProviderSession,
  setup: Setup,
  { mark, inject }: Injector,
): Promise<Driven> {
  const server = setup.server;
  const runEvents: ProviderEventInput[] = [];
  const sink = { emit: (e: ProviderEventInput) => runEvents.push(e) };
  const has = (type: string): boolean => runEvents.some((e) => e.payload.type === type);
  switch (kind) {
    case 'kill9_leader_at_turn_start':
      server?.enqueue(slowText());
      setup.beforeSend = (m) => {
        if (m.method === 'turn/start') inject('SIGKILL');
      };
      break;
    case 'kill9_leader_mid_stream':
    case 'kill9_leader_during_dispose':
    case 'sigstop_leader_interrupt_dispose':
      server?.enqueue(slowText(), textStep('after'));
      break;
    case 'kill9_leader_pending_approval':
      server?.enqueue(
        execCommandStep('echo chaos', { escalate: true, justification: 'chaos' }),
        textStep('done'),
      );
      break;
    case 'kill9_descendant_command':
      server?.enqueue(
        execCommandStep('sleep 600', { escalate: true, justification: 'chaos' }),
        textStep('after kill', { usage: scriptedUsage(5, 1, 0, 0) }),
      );
      break;
    case 'model_closes_mid_stream':
      server?.enqueue(textStep(['a', 'b', 'c', 'd'], { closeAfterDeltas: 2 }));
      break;
    case 'model_stalls_mid_stream':
      server?.enqueue(textStep(['a', 'b', 'c'], { stallAfterDeltas: 1 }));
      break;
    case 'command_setsid_daemon':
      server?.enqueue(
        execCommandStep('setsid sleep 600 >/dev/null 2>&1 < /dev/null & echo started', {
          escalate: true,
          justification: 'chaos',
        }),
        textStep('ok', { usage: scriptedUsage(5, 1, 0, 0) }),
      );
      break;
    default:
      server?.enqueue(textStep(['Hello', ' chaos'], { usage: scriptedUsage(5, 1, 0, 0) }));
  }
  let run: ProviderRun;
  try {
    run = await session.startRun({
      input: { parts: [{ type: 'text', text: 'chaos' }] },
      sink,
      runRef: 'chaos',
    });
  } catch (error) {
    return { outcome: `start:${codeOf(error)}`, typed: isProviderRejection(error), run: undefined };
  }
  let typed = true;
  const approveAll = async (): Promise<void> => {
    for (const e of runEvents) {
      if (e.payload.type !== 'interaction.requested') continue;
      await session
        .respondToInteraction(e.payload.providerRef, {
          kind: 'approval',
          decision: 'approved',
          mode: 'once',
        })
        .catch((error: unknown) => {
          typed &&= isProviderRejection(error);
        });
    }
  };
  switch (kind) {
    case 'kill9_leader_mid_stream':
      if (await until(() => has('run.message_delta'), 15_000)) inject('SIGKILL');
      break;
    case 'kill9_leader_pending_approval':
      if (await until(() => has('interaction.requested'), 15_000)) inject('SIGKILL');
      break;
    case 'kill9_leader_during_dispose':
      await until(() => has('run.message_delta'), 15_000);
      break;
    case 'kill9_descendant_command': {
      if (await until(() => has('interaction.requested'), 15_000)) await approveAll();
      let sleeper: number | undefined;
      await until(() => {
        sleeper = markedProcesses(CHAOS_MARKER_VAR, setup.marker).find(
          (p) => p.comm === 'sleep',
        )?.pid;
        return sleeper !== undefined;
      }, 15_000);
      if (sleeper !== undefined) {
        process.kill(sleeper, 'SIGKILL');
      }
      break;
    }
    case 'sigstop_leader_interrupt_dispose':
      if (await until(() => has('run.message_delta'), 15_000)) {
        inject('SIGSTOP');
        run.interrupt('chaos').catch((error: unknown) => {
          typed &&= isProviderRejection(error);
        });
      }
      break;
    case 'peer_acks_never_completes':
      await new Promise((r) => setTimeout(r, 100));
      mark();
      run.interrupt('chaos').catch((error: unknown) => {
        typed &&= isProviderRejection(error);
      });
      break;
    case 'command_setsid_daemon':
    case 'busy_shell_snapshot':
      if (await until(() => has('interaction.requested'), 15_000)) await approveAll();
      break;
    default:
      // the model-side failures start counting when the turn starts
      mark();
  }
  return { outcome: 'started', typed, run };
}

/** Which adapter features exist, judged by behaviour: options accepted, the child's environment. */
export async function probeFeatures(): Promise<Features> {
  let watchdog = true;
  try {
    createCodexProvider({ stallTimeoutMs: 1_000 });
  } catch {
    watchdog = false;
  }
  const marker = randomUUID();
  const iso = createIsolatedCodexHome('relvo-chaos-probe-');
  const server = await ScriptedModelServer.start();
  let ownedSweep = false;
  try {
    const binary = requireCodexBinary({ kind: 'native' });
    const provider = createCodexProvider({
      executable: binary.path,
      extraArgs: codexConfigArgs({ baseUrl: server.baseUrl }),
      env: iso.env(testEnv({ [CHAOS_MARKER_VAR]: marker })),
      requestTimeoutMs: 30_000,
    });
    const session = await provider.createSession({
      options: {},
      workspace: { root: iso.workspace, ownership: 'borrowed' },
      sink: { emit: () => undefined },
    });
    const pid = leaderPid(marker);
    if (pid !== undefined) {
      const { readFileSync } = await import('node:fs');
      ownedSweep = readFileSync(`/proc/${pid}/environ`, 'latin1')
        .split('\0')
        .some((v) => v.startsWith('RELVO_CODEX_OWNER='));
    }
    await session.dispose();
  } finally {
    await server.close();
    iso.dispose();
  }
  return { watchdog, ownedSweep };
}
