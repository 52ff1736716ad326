/**
 * A chaos session's processes: an isolated codex home, the app-server (or the scripted peer)
 * behind a stdio transport whose sends a case can hook, the model it talks to, and the leader
 * found by the session's marker variable.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODEX_APP_SERVER_VERSION } from '../../src/constants.js';
import {
  createCodexProvider,
  createCodexStdioTransport,
  type CodexFrameSink,
  type CodexProviderOptions,
} from '../../src/index.js';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  requireCodexBinary,
  ScriptedModelServer,
} from '../../src/testing/index.js';
import { markedProcesses } from '../../bench/support/proc.js';
import { testEnv } from '../support/processes.js';
import type { ChaosSettings, Features } from './cases.js';

export const CHAOS_MARKER_VAR = 'RELVO_CHAOS_SESSION';
const PEER = fileURLToPath(new URL('./peer.cjs', import.meta.url));

type Hook = (message: { method?: unknown }) => void;

/** One object per session: the transport hook reads `beforeSend` from it, so never copy it. */
export interface Setup {
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

export function signalLeader(marker: string, signal: NodeJS.Signals): boolean {
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

export async function setUp(
  kind: string,
  features: Features,
  settings: ChaosSettings,
): Promise<Setup> {
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
