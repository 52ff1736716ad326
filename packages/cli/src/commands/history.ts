/**
 * `relvo-codex sessions` lists what a `run` event log holds; `relvo-codex log <session>` prints
 * one session's timeline (or, with `--json`, its envelopes one per line).
 */
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { isRuntimeError, type EventStore } from '@relvo-labs/agent-runtime';
import { CliExit, EXIT } from '../exit-codes.js';
import { HISTORY_EXAMPLES } from '../help.js';
import {
  findSession,
  listingOf,
  openLogForReading,
  readSession,
  type SessionListing,
} from '../host/log-reader.js';
import { openPostgresLog, postgresLog } from '../host/event-store.js';
import { defaultEventLogPath } from '../paths.js';
import { sessionTable } from '../ui/session-table.js';
import { printTimeline } from '../ui/timeline.js';
import type { Output } from '../ui/output.js';

export interface HistoryOptions {
  readonly eventLog: string | undefined;
  /** `--event-store postgres://…`: a shared PostgreSQL log. */
  readonly eventStore?: string | undefined;
  readonly json: boolean;
  /** `sessions --wide`: every column in full (by default the table fits 80 columns). */
  readonly wide?: boolean;
}

/** The log to read and what messages call it (a URL's password hidden). */
export interface LogChoice {
  readonly label: string;
  /** Other runtimes may have its sessions open right now and it cannot tell which (no leases). */
  readonly shared: boolean;
  open(): EventStore | undefined;
}

export function chooseLog(options: HistoryOptions, env: NodeJS.ProcessEnv): LogChoice {
  if (options.eventStore !== undefined) {
    const log = postgresLog(options.eventStore);
    return { label: log.label, shared: true, open: () => openPostgresLog(log) };
  }
  const path =
    options.eventLog === undefined
      ? defaultEventLogPath(env)
      : resolve(process.cwd(), options.eventLog);
  return { label: path, shared: false, open: () => openLogForReading(path) };
}

async function withLog(
  log: LogChoice,
  out: Output,
  use: (store: EventStore) => Promise<number>,
): Promise<number> {
  const path = log.label;
  const store = log.open();
  if (store === undefined) {
    if (!out.json) out.note(`no event log at ${path} yet: \`relvo-codex run\` records one`);
    return EXIT.ok;
  }
  try {
    return await use(store);
  } catch (error) {
    // a shared log fails at its first query (unreachable, refused credentials): say which log
    if (!isRuntimeError(error) || error.error.code !== 'store_unavailable') throw error;
    throw new CliExit(
      EXIT.failed,
      `the event log ${path} cannot be read: ${error.error.message} [${error.reason}]`,
    );
  } finally {
    await store.close();
  }
}

function printListings(listings: readonly SessionListing[], out: Output, wide: boolean): void {
  const [header = '', ...rows] = sessionTable(listings, wide);
  out.print(out.c.bold(header));
  for (const row of rows) out.print(row);
}

export async function runSessions(
  options: HistoryOptions,
  out: Output,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const log = chooseLog(options, env);
  const path = log.label;
  return withLog(log, out, async (store) => {
    const summaries = [...(await store.listSessions())].sort((a, b) =>
      a.openedAt.localeCompare(b.openedAt),
    );
    // who holds each session's lease now; a store without leases cannot tell (then a shared
    // log's open sessions are taken as live)
    const owners = await store.commands?.owners();
    const live = (id: string): boolean => owners?.has(id) ?? log.shared;
    const listings: SessionListing[] = [];
    for (const s of summaries)
      listings.push(listingOf(s, await readSession(store, s.sessionId), live(s.sessionId)));
    if (out.json) {
      for (const l of listings) out.jsonLine(l);
    } else if (listings.length === 0) {
      out.note(`no sessions in ${path}`);
    } else {
      printListings(listings, out, options.wide === true);
      const resume = listings.some((l) => l.resumable)
        ? '; `relvo-codex run --resume <session> "<prompt>"` continues a resumable one'
        : '';
      out.note(
        out.c.dim(
          `${listings.length} session(s) in ${path}; \`relvo-codex log <session>\`${resume}`,
        ),
      );
    }
    return EXIT.ok;
  });
}

export async function runLog(
  sessionId: string,
  options: HistoryOptions,
  out: Output,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const log = chooseLog(options, env);
  return withLog(log, out, async (store) => {
    const summary = await findSession(store, sessionId, log.label);
    const events = await readSession(store, summary.sessionId);
    if (out.json) for (const e of events) out.jsonLine(e);
    else printTimeline(events, out);
    return EXIT.ok;
  });
}

const EVENT_STORE_HELP = 'a PostgreSQL event log several hosts share (as for run --event-store)';

const EVENT_LOG_HELP =
  'the SQLite event log of `run` (default: $RELVO_CODEX_EVENT_LOG or ~/.local/state/relvo-codex/events.sqlite)';

interface HistoryFlags {
  eventLog?: string;
  eventStore?: string;
  json?: boolean;
  wide?: boolean;
  color: boolean;
}

function historyOptions(opts: HistoryFlags, json: boolean): HistoryOptions {
  return { eventLog: opts.eventLog, eventStore: opts.eventStore, json, wide: opts.wide === true };
}

/** Adds `sessions` and `log` to the program; `outputFor` builds the Output of a command. */
export function registerHistoryCommands(
  program: Command,
  env: NodeJS.ProcessEnv,
  outputFor: (opts: { color: boolean; json?: boolean }) => Output,
  setExit: (code: number) => void,
): void {
  program
    .command('sessions')
    .description('list the sessions an event log holds: id, profile, state, turns, times')
    .option('--event-log <file>', EVENT_LOG_HELP)
    .addOption(new Option('--event-store <url>', EVENT_STORE_HELP).conflicts('eventLog'))
    .option('--json', 'one JSON object per session on stdout')
    .option('--wide', 'every column in full: whole ids, start and last activity to the second')
    .option('--no-color', 'no colour (NO_COLOR is respected too)')
    .addHelpText('after', `\n${HISTORY_EXAMPLES}`)
    .action(async (opts: HistoryFlags) => {
      const out = outputFor(opts);
      setExit(await runSessions(historyOptions(opts, out.json), out, env));
    });
  program
    .command('log')
    .description('print one session: text, tool activity, approvals and their outcome, usage')
    .argument('<session>', 'a session id from `relvo-codex sessions` (a unique prefix will do)')
    .option('--event-log <file>', EVENT_LOG_HELP)
    .addOption(new Option('--event-store <url>', EVENT_STORE_HELP).conflicts('eventLog'))
    .option('--json', 'the session’s runtime event envelopes, one per line')
    .option('--no-color', 'no colour (NO_COLOR is respected too)')
    .addHelpText('after', `\n${HISTORY_EXAMPLES}`)
    .action(async (session: string, opts: HistoryFlags) => {
      const out = outputFor(opts);
      setExit(await runLog(session, historyOptions(opts, out.json), out, env));
    });
}
