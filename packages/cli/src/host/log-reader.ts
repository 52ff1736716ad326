/**
 * Reading a `run` event log (`relvo-codex sessions`, `relvo-codex log`) through the runtime's
 * store API, also while runs are writing it: every read is of one committed moment, and a
 * session's lease says whether a live process has it open.
 */
import { existsSync } from 'node:fs';
import {
  isRuntimeError,
  openSqliteEventStore,
  type EventEnvelope,
  type EventStore,
  type StoredSession,
} from '@relvo-labs/agent-runtime';
import { CliExit, EXIT } from '../exit-codes.js';

const PAGE = 1000;
const FINAL_STATES: ReadonlySet<string> = new Set(['closed', 'failed']);

/** Opens the log for reading; a missing file is `undefined` (nothing was recorded yet). */
export function openLogForReading(path: string): EventStore | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return openSqliteEventStore({ path });
  } catch (error) {
    if (isRuntimeError(error) && error.reason === 'store_locked') {
      // only a program that holds the whole file (a relvo-codex from before shared logs) does this
      throw new CliExit(
        EXIT.failed,
        `the event log ${path} is held exclusively by another program; try again when it has ended`,
      );
    }
    const why = isRuntimeError(error) ? `${error.error.message} [${error.reason}]` : 'unreadable';
    throw new CliExit(
      EXIT.failed,
      `the event log ${path} cannot be read: ${why}; name another with --event-log`,
    );
  }
}

/** Every envelope of one session, in sequence order. */
export async function readSession(
  store: EventStore,
  sessionId: string,
): Promise<readonly EventEnvelope[]> {
  const all: EventEnvelope[] = [];
  for (;;) {
    const page = await store.read(sessionId, { fromSequence: all.length + 1, limit: PAGE });
    all.push(...page);
    if (page.length < PAGE) return all;
  }
}

export interface SessionListing {
  readonly sessionId: string;
  /** The profiles its turns ran on, else the session's default profile. */
  readonly profiles: readonly string[];
  /**
   * The stored state; one that is not final and whose lease no live process holds reads
   * `<state>, process ended`: whatever ran that session ended without closing it.
   */
  readonly state: string;
  /**
   * Left open with a recorded codex thread: `run --resume` continues it (on a shared log, once
   * the host that had it open has ended and its lease lapsed).
   */
  readonly resumable: boolean;
  readonly turns: number;
  readonly startedAt: string;
  readonly lastActivityAt: string;
}

/** `live`: a runtime holds the session's lease now (it has the session open). */
export function listingOf(
  summary: StoredSession,
  events: readonly EventEnvelope[],
  live = false,
): SessionListing {
  const profiles = new Set<string>();
  let turns = 0;
  let recorded = false;
  for (const e of events) {
    if (e.payload.type === 'session.recovery_recorded') recorded = true;
    if (e.payload.type === 'turn.started') {
      turns += 1;
      profiles.add(e.payload.profile);
    }
  }
  return {
    sessionId: summary.sessionId,
    profiles: profiles.size === 0 ? [summary.defaultProfile] : [...profiles],
    state:
      live || FINAL_STATES.has(summary.state) ? summary.state : `${summary.state}, process ended`,
    resumable: summary.state === 'ready' && recorded,
    turns,
    startedAt: summary.openedAt,
    lastActivityAt: summary.updatedAt,
  };
}

/** The session whose id is `wanted`, or the only one whose id starts with it. */
export async function findSession(
  store: EventStore,
  wanted: string,
  path: string,
): Promise<StoredSession> {
  const exact = await store.getSession(wanted);
  if (exact !== undefined) return exact;
  const matches = (await store.listSessions()).filter((s) => s.sessionId.startsWith(wanted));
  if (matches.length === 1 && matches[0] !== undefined) return matches[0];
  throw new CliExit(
    EXIT.usage,
    matches.length === 0
      ? `no session "${wanted}" in ${path}; \`relvo-codex sessions\` lists them`
      : `"${wanted}" matches ${matches.length} sessions; give more of the id`,
  );
}
