/**
 * The PostgreSQL command table (ADR-0052): commands for a session, carried out by its lease
 * holder. Accepting and settling lock the session's lease row (`Leases.holds`) in the same
 * transaction, so a runtime whose lease lapsed can neither accept nor settle; every change
 * sends a NOTIFY at commit on the store's channel, which wakes owners and waiting callers on
 * every host.
 */
import type { PoolClient } from 'pg';
import type { JsonObject } from '@relvo-labs/agent-provider';
import { RuntimeError } from '../errors.js';
import { duplicateCommand, toCommand } from './command-rows.js';
import { pgStoreError } from './postgres-errors.js';
import type { CommandTable, NewCommand, SessionOwner, StoredCommand } from './commands.js';
import type { Leases } from './postgres-lease.js';
import type { AppendWatcher } from './postgres-listen.js';

/** The watcher key command notifications use: no session id has this form. */
export const COMMANDS_KEY = '*commands*';

const COLUMNS =
  'command_id, session_id, body, issued_by, issued_at, state, accepted_by, settlement';

export interface PgCommandDeps {
  readonly schema: string;
  readonly channel: string;
  readonly leases: Leases;
  readonly watcher: AppendWatcher;
  /** Opens (migrates) the store first, then lends a client. */
  withClient<T>(fn: (client: PoolClient) => Promise<T>): Promise<T>;
}

/** `lease_lost` when this store held the lease once, else `session_leased` (another's). */
function notLeased(heldOnce: boolean): RuntimeError {
  return heldOnce
    ? new RuntimeError(
        'store_unavailable',
        'lease_lost',
        "this runtime's lease on the session lapsed or was taken over; the command is left to the next owner",
      )
    : new RuntimeError(
        'store_unavailable',
        'session_leased',
        "this runtime does not hold the session's lease; the command is left to its owner",
      );
}

export class PgCommandTable implements CommandTable {
  readonly owner: string;
  readonly #d: PgCommandDeps;
  readonly #table: string;

  constructor(deps: PgCommandDeps) {
    this.#d = deps;
    this.owner = deps.leases.owner;
    this.#table = `${deps.schema}.commands`;
  }

  async #tx<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
    return this.#d.withClient(async (c) => {
      await c.query('BEGIN');
      try {
        const out = await fn(c);
        await c.query('COMMIT');
        return out;
      } catch (error) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  async #notify(c: PoolClient): Promise<void> {
    await c.query('SELECT pg_notify($1, $2)', [this.#d.channel, `${COMMANDS_KEY} 0`]);
  }

  async enqueue(command: NewCommand): Promise<void> {
    await this.#tx(async (c) => {
      const inserted = await c.query(
        `INSERT INTO ${this.#table} (command_id, session_id, body, issued_by, issued_at, state)
         VALUES ($1, $2, $3, $4, $5, 'pending') ON CONFLICT (command_id) DO NOTHING`,
        [
          command.commandId,
          command.sessionId,
          JSON.stringify(command.body),
          this.owner,
          command.issuedAt,
        ],
      );
      if (inserted.rowCount !== 1) throw duplicateCommand();
      await this.#notify(c);
    });
  }

  async get(commandId: string): Promise<StoredCommand | undefined> {
    const rows = await this.#d.withClient(
      async (c) =>
        (
          await c.query<Record<string, unknown>>(
            `SELECT ${COLUMNS} FROM ${this.#table} WHERE command_id = $1`,
            [commandId],
          )
        ).rows,
    );
    return rows[0] === undefined ? undefined : toCommand(rows[0]);
  }

  async pendingSessions(limit: number): Promise<ReadonlySet<string>> {
    const rows = await this.#d.withClient(
      async (c) =>
        (
          await c.query<{ session_id: string }>(
            `SELECT DISTINCT session_id FROM ${this.#table} WHERE state = 'pending' LIMIT $1`,
            [limit],
          )
        ).rows,
    );
    return new Set(rows.map((r) => r.session_id));
  }

  async unsettled(sessionId: string, limit: number): Promise<readonly StoredCommand[]> {
    const rows = await this.#d.withClient(
      async (c) =>
        (
          await c.query<Record<string, unknown>>(
            `SELECT ${COLUMNS} FROM ${this.#table} WHERE session_id = $1 AND state <> 'settled'
             ORDER BY seq LIMIT $2`,
            [sessionId, limit],
          )
        ).rows,
    );
    return rows.map(toCommand);
  }

  /** Locks the command's row; its session and state, or undefined when it is not recorded. */
  async #locked(c: PoolClient, commandId: string): Promise<StoredCommand | undefined> {
    const { rows } = await c.query<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM ${this.#table} WHERE command_id = $1 FOR UPDATE`,
      [commandId],
    );
    return rows[0] === undefined ? undefined : toCommand(rows[0]);
  }

  async accept(commandId: string): Promise<boolean> {
    return this.#tx(async (c) => {
      const command = await this.#locked(c, commandId);
      if (command?.state !== 'pending') return false;
      const token = this.#d.leases.tokenOf(command.sessionId);
      if (token === undefined || !(await this.#d.leases.holds(c, command.sessionId))) {
        throw notLeased(token !== undefined || command.acceptedBy === this.owner);
      }
      await c.query(
        `UPDATE ${this.#table} SET state = 'accepted', accepted_by = $2, accepted_token = $3
         WHERE command_id = $1`,
        [commandId, this.owner, token],
      );
      await this.#notify(c);
      return true;
    });
  }

  async settle(commandId: string, settlement: JsonObject): Promise<boolean> {
    const withdrawing = settlement['outcome'] === 'withdrawn';
    return this.#tx(async (c) => {
      const command = await this.#locked(c, commandId);
      if (command === undefined || command.state === 'settled') return false;
      if (withdrawing) {
        if (command.state !== 'pending') return false;
      } else if (!(await this.#maySettle(c, command.sessionId, commandId))) {
        throw notLeased(command.acceptedBy === this.owner);
      }
      await c.query(
        `UPDATE ${this.#table} SET state = 'settled', settlement = $2, settled_at = clock_timestamp()
         WHERE command_id = $1`,
        [commandId, JSON.stringify(settlement)],
      );
      await this.#notify(c);
      return true;
    });
  }

  /**
   * The lease holder may settle; so may the runtime that accepted the command, under the same
   * lease token, after that lease ended (a `close` ends it before its command settles).
   */
  async #maySettle(c: PoolClient, sessionId: string, commandId: string): Promise<boolean> {
    if (await this.#d.leases.holds(c, sessionId)) return true;
    const { rows } = await c.query<{ token: string | null; by: string | null }>(
      `SELECT accepted_token::text AS token, accepted_by AS by FROM ${this.#table}
       WHERE command_id = $1`,
      [commandId],
    );
    const row = rows[0];
    if (row?.token == null || row.by !== this.owner) return false;
    return this.#d.leases.unchangedSince(c, sessionId, row.token);
  }

  async watch(onChange: () => void): Promise<() => void> {
    try {
      return await this.#d.watcher.watch(COMMANDS_KEY, onChange);
    } catch (error) {
      throw pgStoreError(error);
    }
  }

  async owners(): Promise<ReadonlyMap<string, SessionOwner>> {
    const holders = await this.#d.withClient((c) => this.#d.leases.holders(c));
    return new Map([...holders].map(([id, owner]) => [id, this.#owner(owner)]));
  }

  async ownerOf(sessionId: string): Promise<SessionOwner | undefined> {
    const holders = await this.#d.withClient((c) => this.#d.leases.holders(c, sessionId));
    const owner = holders.get(sessionId);
    return owner === undefined ? undefined : this.#owner(owner);
  }

  #owner(owner: string): SessionOwner {
    return { owner, self: owner === this.owner };
  }
}
