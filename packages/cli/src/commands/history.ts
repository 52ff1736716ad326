/**
 * `relvo-codex sessions` lists what a `run` event log holds; `relvo-codex log <session>` prints
 * one session's timeline (or, with `--json`, its envelopes one per line).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { EventStore } from '@relvo-labs/agent-runtime';
import { EXIT } from '../exit-codes.js';
import { HISTORY_EXAMPLES } from '../help.js';
import {
  findSession,
  listingOf,
  openLogForReading,
  readSession,
  type SessionListing,
} from '../host/log-reader.js';
import { defaultEventLogPath } from '../paths.js';
import { printTimeline } from '../ui/timeline.js';
import type { Output } from '../ui/output.js';

export interface HistoryOptions {
  readonly eventLog: string | undefined;
  readonly json: boolean;
}

function logPath(options: HistoryOptions, env: NodeJS.ProcessEnv): string {
  return options.eventLog === undefined
    ? defaultEventLogPath(env)
    : resolve(process.cwd(), options.eventLog);
}

async function withLog(
  path: string,
  out: Output,
  use: (store: EventStore) => Promise<number>,
): Promise<number> {
  const store = openLogForReading(path);
  if (store === undefined) {
    if (!out.json) out.note(`no event log at ${path} yet: \`relvo-codex run\` records one`);
    return EXIT.ok;
  }
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

function when(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}Z`;
}

function printListings(listings: readonly SessionListing[], out: Output): void {
  const rows = listings.map((l) => [
    l.sessionId,
    l.profiles.join(','),
    l.state,
    String(l.turns),
    when(l.startedAt),
    when(l.lastActivityAt),
    l.resumable ? 'yes' : '-',
  ]);
  const header = ['SESSION', 'PROFILE', 'STATE', 'TURNS', 'STARTED', 'LAST ACTIVITY', 'RESUMABLE'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const format = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  out.print(out.c.bold(format(header)));
  for (const row of rows) out.print(format(row));
}

export async function runSessions(
  options: HistoryOptions,
  out: Output,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const path = logPath(options, env);
  return withLog(path, out, async (store) => {
    const summaries = [...(await store.listSessions())].sort((a, b) =>
      a.openedAt.localeCompare(b.openedAt),
    );
    const listings: SessionListing[] = [];
    for (const s of summaries) listings.push(listingOf(s, await readSession(store, s.sessionId)));
    if (out.json) {
      for (const l of listings) out.jsonLine(l);
    } else if (listings.length === 0) {
      out.note(`no sessions in ${path}`);
    } else {
      printListings(listings, out);
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
  const path = logPath(options, env);
  return withLog(path, out, async (store) => {
    const summary = await findSession(store, sessionId, path);
    const events = await readSession(store, summary.sessionId);
    if (out.json) for (const e of events) out.jsonLine(e);
    else printTimeline(events, out);
    return EXIT.ok;
  });
}

const EVENT_LOG_HELP =
  'the SQLite event log of `run` (default: $RELVO_CODEX_EVENT_LOG or ~/.local/state/relvo-codex/events.sqlite)';

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
    .option('--json', 'one JSON object per session on stdout')
    .option('--no-color', 'no colour (NO_COLOR is respected too)')
    .addHelpText('after', `\n${HISTORY_EXAMPLES}`)
    .action(async (opts: { eventLog?: string; json?: boolean; color: boolean }) => {
      const out = outputFor(opts);
      setExit(await runSessions({ eventLog: opts.eventLog, json: out.json }, out, env));
    });
  program
    .command('log')
    .description('print one session: text, tool activity, approvals and their outcome, usage')
    .argument('<session>', 'a session id from `relvo-codex sessions` (a unique prefix will do)')
    .option('--event-log <file>', EVENT_LOG_HELP)
    .option('--json', 'the session’s runtime event envelopes, one per line')
    .option('--no-color', 'no colour (NO_COLOR is respected too)')
    .addHelpText('after', `\n${HISTORY_EXAMPLES}`)
    .action(
      async (session: string, opts: { eventLog?: string; json?: boolean; color: boolean }) => {
        const out = outputFor(opts);
        setExit(await runLog(session, { eventLog: opts.eventLog, json: out.json }, out, env));
      },
    );
}
