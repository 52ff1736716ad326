/**
 * `relvo-codex attach <session>`: follows a session that another process runs (on the shared
 * event log) and answers its approvals and questions from here. It opens a runtime on the log
 * that can run nothing (no provider it could start), so it never takes a session over: an
 * answer goes through `runtime.respond(sessionId, …)` to the runtime that owns the session.
 * Ctrl-C detaches and leaves the session as it is.
 */
import { Option, type Command } from 'commander';
import {
  createAgentRuntime,
  RuntimeError,
  type AgentRuntime,
  type EventStore,
} from '@relvo-labs/agent-runtime';
import { SessionFollower, type FollowEnd } from '../attach/follow.js';
import { CliExit, EXIT } from '../exit-codes.js';
import { ATTACH_EXAMPLES } from '../help.js';
import { findSession, readSession } from '../host/log-reader.js';
import type { CliIo } from '../cli-io.js';
import { terminalStreams } from '../turn/exit.js';
import type { Output } from '../ui/output.js';
import { TimelineRenderer } from '../ui/timeline.js';
import { chooseLog } from './history.js';

export interface AttachOptions {
  readonly eventLog: string | undefined;
  readonly eventStore: string | undefined;
}

/**
 * The only profile of an attaching runtime: its provider refuses to start, so a session can be
 * neither opened nor resumed here (a routed answer to a session nobody owns is refused, typed).
 */
const FOLLOW_ONLY = 'relvo-codex-attach';

function followOnlyRuntime(store: EventStore): Promise<AgentRuntime> {
  const refuse = (): never => {
    throw new RuntimeError(
      'invalid_request',
      'session_not_resumable',
      'attach runs no session itself; resume it with `relvo-codex run --resume`',
    );
  };
  return createAgentRuntime({
    providers: { [FOLLOW_ONLY]: refuse },
    config: { defaultProfile: FOLLOW_ONLY, profiles: { [FOLLOW_ONLY]: { provider: FOLLOW_ONLY } } },
    store,
  });
}

/** SIGINT detaches (130); SIGTERM and SIGHUP too, with 143 and 129. */
function onSignals(detach: (code: number) => void): () => void {
  const handlers = {
    SIGINT: () => {
      detach(EXIT.interrupted);
    },
    SIGTERM: () => {
      detach(143);
    },
    SIGHUP: () => {
      detach(129);
    },
  } as const;
  for (const [signal, handler] of Object.entries(handlers)) process.on(signal, handler);
  return () => {
    for (const [signal, handler] of Object.entries(handlers)) process.off(signal, handler);
  };
}

export async function runAttach(
  wanted: string,
  options: AttachOptions,
  out: Output,
  io: CliIo,
): Promise<number> {
  const log = chooseLog({ ...options, json: false }, io.env);
  const store = log.open();
  if (store === undefined)
    throw new CliExit(
      EXIT.usage,
      `no session "${wanted}": there is no event log at ${log.label} yet; \`relvo-codex run\` records one`,
    );
  let runtime: AgentRuntime;
  let sessionId: string;
  try {
    sessionId = (await findSession(store, wanted, log.label)).sessionId;
    runtime = await followOnlyRuntime(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  // set by a signal, read after awaits: a box, not a narrowed local
  const detached: { code: number | undefined; follower: SessionFollower | undefined } = {
    code: undefined,
    follower: undefined,
  };
  const removeSignals = onSignals((c) => {
    detached.code ??= c;
    detached.follower?.detach();
  });
  try {
    const history = await readSession(runtime.store, sessionId);
    const renderer = new TimelineRenderer(out, true);
    for (const e of history) renderer.push(e);
    renderer.flush();
    if (history.some((e) => e.payload.type === 'session.closed')) {
      out.note(out.c.dim('the session has ended'));
      return EXIT.ok;
    }
    const owner = (await runtime.sessionOwners()).get(sessionId);
    out.note(
      out.c.dim(
        owner === 'elsewhere'
          ? `attached to ${sessionId} · Ctrl-C detaches (the session keeps running)`
          : `attached to ${sessionId}; no process runs it now (\`relvo-codex run --resume\` continues it) · Ctrl-C detaches`,
      ),
    );
    const follower = new SessionFollower({
      runtime,
      sessionId,
      fromSequence: (history.at(-1)?.sequence ?? 0) + 1,
      out,
      terminal: terminalStreams(io),
    });
    detached.follower = follower;
    if (detached.code !== undefined) follower.detach();
    const end: FollowEnd = await follower.follow();
    if (end === 'ended') {
      out.note('the session has ended');
      return EXIT.ok;
    }
    if (end === 'failed') return EXIT.failed;
    out.note(out.c.dim(`detached from ${sessionId}; it was left as it is`));
    return detached.code ?? EXIT.interrupted;
  } finally {
    removeSignals();
    await runtime.shutdown();
  }
}

const EVENT_LOG_HELP = 'the SQLite event log (default: as for run)';
const EVENT_STORE_HELP = 'a PostgreSQL event log several hosts share (as for run --event-store)';

export function registerAttachCommand(
  program: Command,
  io: CliIo,
  outputFor: (opts: { color: boolean }) => Output,
  setExit: (code: number) => void,
): void {
  program
    .command('attach')
    .description(
      'follow a session another relvo-codex runs, and answer its approvals and questions here',
    )
    .argument('<session>', 'a session id from `relvo-codex sessions` (a unique prefix will do)')
    .option('--event-log <file>', EVENT_LOG_HELP)
    .addOption(new Option('--event-store <url>', EVENT_STORE_HELP).conflicts('eventLog'))
    .option('--no-color', 'no colour (NO_COLOR is respected too)')
    .addHelpText('after', `\n${ATTACH_EXAMPLES}`)
    .action(
      async (session: string, opts: { eventLog?: string; eventStore?: string; color: boolean }) => {
        const options = { eventLog: opts.eventLog, eventStore: opts.eventStore };
        setExit(await runAttach(session, options, outputFor(opts), io));
      },
    );
}
