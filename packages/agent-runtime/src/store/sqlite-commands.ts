/**
 * The command table of the SQLite store (ADR-0052, ADR-0053): rows beside the log in the same
 * file. Accepting and settling as the session's owner check its lease in the same write
 * transaction, which SQLite runs alone over the whole file, so a store that lost the lease
 * cannot accept or settle what the next owner handles. Other processes learn of changes by the
 * store's bounded poll (sqlite-watch.ts).
 */
import { jsonObjectSchema, type JsonObject } from '@relvo-labs/agent-provider';
import { rejection, RuntimeError } from '../errors.js';
import {
  COMMAND_STATES,
  type CommandState,
  type CommandTable,
  type NewCommand,
  type SessionOwner,
  type StoredCommand,
} from './commands.js';
import type Database from 'better-sqlite3';
import { sqliteCode, storeErrorOf } from './sqlite-errors.js';
import type { SqliteLeases } from './sqlite-lease.js';
import { duplicateCommand } from './command-rows.js';
import type { SqlitePoller } from './sqlite-watch.js';

interface CommandRow {
  readonly command_id: string;
  readonly session_id: string;
  readonly body: string;
  readonly issued_by: string;
  readonly issued_at: string;
  readonly state: string;
  readonly accepted_by: string | null;
  readonly settlement: string | null;
}

const COLUMNS =
  'command_id, session_id, body, issued_by, issued_at, state, accepted_by, settlement';
const NEXT_CHANGE = '(SELECT coalesce(max(changed), 0) + 1 FROM commands)';

/**
 * A stored JSON object as read back; a damaged one reads as `{}`, which the runtime carrying
 * the command out (or waiting for its settlement) refuses by its schema, typed.
 */
function objectOf(text: string | null): JsonObject {
  if (text === null) return {};
  try {
    const parsed = jsonObjectSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

function toCommand(row: CommandRow): StoredCommand {
  if (!(COMMAND_STATES as readonly string[]).includes(row.state)) {
    throw new RuntimeError('store_unavailable', 'store_corrupt', 'a stored command is damaged', {
      details: { column: 'state' },
    });
  }
  return {
    commandId: row.command_id,
    sessionId: row.session_id,
    body: objectOf(row.body),
    issuedBy: row.issued_by,
    issuedAt: row.issued_at,
    state: row.state as CommandState,
    ...(row.accepted_by === null ? {} : { acceptedBy: row.accepted_by }),
    ...(row.settlement === null ? {} : { settlement: objectOf(row.settlement) }),
  };
}

export class SqliteCommands implements CommandTable {
  readonly owner: string;
  readonly #insert: Database.Statement;
  readonly #select: Database.Statement;
  readonly #unsettled: Database.Statement;
  readonly #pendingSessions: Database.Statement;
  readonly #accept: Database.Transaction<(commandId: string) => boolean>;
  readonly #settle: Database.Transaction<(commandId: string, settlement: JsonObject) => boolean>;

  constructor(
    db: Database.Database,
    private readonly leases: SqliteLeases,
    private readonly poller: SqlitePoller,
    private readonly guard: () => void,
  ) {
    this.owner = leases.owner;
    this.#insert = db.prepare(
      `INSERT INTO commands (${COLUMNS}, changed)
       VALUES (?, ?, ?, ?, ?, 'pending', NULL, NULL, ${NEXT_CHANGE})`,
    );
    this.#select = db.prepare(`SELECT ${COLUMNS} FROM commands WHERE command_id = ?`);
    this.#pendingSessions = db
      .prepare(`SELECT DISTINCT session_id FROM commands WHERE state = 'pending' LIMIT ?`)
      .pluck();
    this.#unsettled = db.prepare(
      `SELECT ${COLUMNS} FROM commands WHERE session_id = ? AND state <> 'settled'
       ORDER BY rowid LIMIT ?`,
    );
    const accepted = db.prepare(
      `UPDATE commands SET state = 'accepted', accepted_by = ?, changed = ${NEXT_CHANGE}
       WHERE command_id = ?`,
    );
    const settled = db.prepare(
      `UPDATE commands SET state = 'settled', settlement = ?, changed = ${NEXT_CHANGE}
       WHERE command_id = ?`,
    );
    this.#accept = db.transaction((commandId: string) => {
      const row = this.#row(commandId);
      if (row?.state !== 'pending') return false;
      this.leases.check(row.session_id);
      accepted.run(this.owner, commandId);
      return true;
    });
    this.#settle = db.transaction((commandId: string, settlement: JsonObject) => {
      const row = this.#row(commandId);
      if (row === undefined || row.state === 'settled') return false;
      // anyone may withdraw a command nobody accepted; anything else is the owner's to settle
      if (settlement.outcome === 'withdrawn') {
        if (row.state !== 'pending') return false;
      } else if (row.accepted_by !== this.owner || !this.leases.lastHeldHere(row.session_id)) {
        this.leases.check(row.session_id);
      }
      settled.run(JSON.stringify(settlement), commandId);
      return true;
    });
  }

  #row(commandId: string): CommandRow | undefined {
    return this.#select.get(commandId) as CommandRow | undefined;
  }

  #run<T>(fn: () => T): Promise<T> {
    try {
      this.guard();
      return Promise.resolve(fn());
    } catch (error) {
      return rejection(storeErrorOf(error));
    }
  }

  enqueue(command: NewCommand): Promise<void> {
    return this.#run(() => {
      const { commandId, sessionId, body, issuedAt } = command;
      try {
        this.#insert.run(commandId, sessionId, JSON.stringify(body), this.owner, issuedAt);
      } catch (error) {
        if (sqliteCode(error)?.startsWith('SQLITE_CONSTRAINT') === true) throw duplicateCommand();
        throw error;
      }
      this.poller.commandsChanged();
    });
  }

  get(commandId: string): Promise<StoredCommand | undefined> {
    return this.#run(() => {
      const row = this.#row(commandId);
      return row === undefined ? undefined : toCommand(row);
    });
  }

  pendingSessions(limit: number): Promise<ReadonlySet<string>> {
    return this.#run(() => new Set(this.#pendingSessions.all(limit) as string[]));
  }

  unsettled(sessionId: string, limit: number): Promise<readonly StoredCommand[]> {
    return this.#run(() => (this.#unsettled.all(sessionId, limit) as CommandRow[]).map(toCommand));
  }

  accept(commandId: string): Promise<boolean> {
    return this.#run(() => {
      const done = this.#accept.immediate(commandId);
      if (done) this.poller.commandsChanged();
      return done;
    });
  }

  settle(commandId: string, settlement: JsonObject): Promise<boolean> {
    return this.#run(() => {
      const done = this.#settle.immediate(commandId, settlement);
      if (done) this.poller.commandsChanged();
      return done;
    });
  }

  watch(onChange: () => void): Promise<() => void> {
    return this.#run(() => this.poller.watchCommands(onChange));
  }

  owners(): Promise<ReadonlyMap<string, SessionOwner>> {
    return this.#run(() => this.leases.owners());
  }

  ownerOf(sessionId: string): Promise<SessionOwner | undefined> {
    return this.#run(() => this.leases.ownerOf(sessionId));
  }
}
