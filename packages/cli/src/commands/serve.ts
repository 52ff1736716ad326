/**
 * `relvo-codex serve`: the runtime's web console (`@relvo-labs/agent-runtime/console`) over
 * the same host config, workspace and event log as `run`. Sessions opened from the page work
 * in `--cwd`; finished sessions of the log are listed and replayed. The token is never
 * printed: the page's address carries a one-time code (in its fragment, which a browser never
 * sends to a server) that the page trades for the token, so a browser's history keeps a spent
 * code. Enter on a terminal prints a fresh address. Runs until SIGINT, SIGTERM or SIGHUP.
 */
import { createInterface, type Interface } from 'node:readline';
import { isRuntimeError, type AgentRuntime } from '@relvo-labs/agent-runtime';
import { startConsole, type ConsoleServer } from '@relvo-labs/agent-runtime/console';
import { requireReviewedCodex } from '../codex/gate.js';
import { CliExit, EXIT } from '../exit-codes.js';
import { chooseConfig } from '../host/config.js';
import { postgresLog } from '../host/event-store.js';
import { placeSessions } from '../host/placement.js';
import { openLoggedRuntime } from '../host/runtime.js';
import { checkEventLogPath } from '../host/startup-checks.js';
import type { CliIo } from '../cli-io.js';
import type { Output } from '../ui/output.js';

export const CONSOLE_TOKEN_ENV = 'RELVO_CODEX_CONSOLE_TOKEN';

export interface ServeOptions {
  readonly host: string | undefined;
  readonly port: string | undefined;
  readonly profile: string | undefined;
  readonly config: string | false | undefined;
  readonly cwd: string | undefined;
  readonly eventLog: string | undefined;
  /** `--event-store postgres://…`: the log on a shared PostgreSQL database instead. */
  readonly eventStore?: string | undefined;
  readonly ephemeral: boolean;
  readonly codex: string | undefined;
}

function portOf(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!/^\d{1,5}$/.test(value) || port > 65_535) {
    throw new CliExit(
      EXIT.usage,
      'serve: --port must be a number from 0 to 65535; give one, or leave it out for a free port',
    );
  }
  return port;
}

/** Why the console could not start, as a usage error that names the option to change. */
function listenFailure(error: unknown): CliExit {
  if (isRuntimeError(error)) {
    return new CliExit(
      EXIT.usage,
      `serve: --host, or $${CONSOLE_TOKEN_ENV} (16 to 512 of A-Z a-z 0-9 . _ ~ + / = -), is invalid`,
    );
  }
  const code = (error as { code?: unknown } | null)?.code;
  const why = typeof code === 'string' && /^E[A-Z]{2,20}$/.test(code) ? code : 'failed';
  return new CliExit(
    EXIT.usage,
    `serve: cannot listen there (${why}); pick another --host or --port`,
  );
}

const STOPPING = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Resolves at the first SIGINT, SIGTERM or SIGHUP. The listeners stay until `dispose()`, after
 * the clean-up: while the host listens, the provider's last-resort handler leaves the signal
 * to it instead of killing codex and re-raising it.
 */
function stopSignals(): { readonly signalled: Promise<void>; dispose(): void } {
  let on: () => void = () => undefined;
  const signalled = new Promise<void>((resolveSignal) => {
    on = () => {
      resolveSignal();
    };
  });
  for (const signal of STOPPING) process.on(signal, on);
  return {
    signalled,
    dispose() {
      for (const signal of STOPPING) process.off(signal, on);
    },
  };
}

export async function runServe(options: ServeOptions, out: Output, io: CliIo): Promise<number> {
  const port = portOf(options.port);
  const cwd = process.cwd();
  const chosen = chooseConfig({
    configFile: options.config,
    profile: options.profile,
    sandbox: undefined,
    approvals: undefined,
    model: undefined,
    cwd,
  });
  const placed = placeSessions(options, chosen, cwd, io.env);
  const { workspace, ephemeral } = placed;
  const shared = options.eventStore === undefined ? undefined : postgresLog(options.eventStore);
  // what messages name: the file, or the URL with its password hidden
  const eventLog = shared?.label ?? placed.eventLog;
  if (!ephemeral && shared === undefined) checkEventLogPath(eventLog);
  const codex = await requireReviewedCodex(options.codex, io.env);
  const given = io.env[CONSOLE_TOKEN_ENV];
  const stop = stopSignals();
  let runtime: AgentRuntime | undefined;
  let console_: ConsoleServer | undefined;
  let lines: Interface | undefined;
  try {
    runtime = await openLoggedRuntime(
      { ephemeral, shared, eventLog, named: options.eventLog },
      { codex, env: io.env, config: { ...chosen.config, defaultProfile: chosen.profile } },
    );
    console_ = await startConsole({
      runtime,
      port,
      workspace,
      ...(options.host === undefined ? {} : { host: options.host }),
      ...(given === undefined || given === '' ? {} : { token: given }),
    }).catch((error: unknown) => {
      throw listenFailure(error);
    });
    out.note(
      `console on ${console_.url} (Ctrl-C to stop); ${ephemeral ? 'no event log' : `event log ${eventLog}`}`,
    );
    // stdout: the one line a person or a script needs to open the page (its code works once)
    io.stdout.write(`${console_.pageUrl}\n`);
    if (io.stdin.isTTY) {
      out.note('the address works once, for 60 s: press Enter for a fresh one');
      const served = console_;
      lines = createInterface({ input: io.stdin });
      lines.on('line', () => io.stdout.write(`${served.newPageUrl()}\n`));
    }
    await stop.signalled;
    return EXIT.ok;
  } finally {
    lines?.close();
    await console_?.close();
    await runtime?.shutdown().catch(() => undefined);
    stop.dispose();
  }
}
