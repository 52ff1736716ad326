/**
 * The PostgreSQL command table (ADR-0052; contract in commands.ts). One row per command beside
 * the log. Accepting and settling as the lease holder run in one transaction with the lease
 * check of an append (`Leases.fence`, never taking a lease), so a runtime whose lease lapsed or
 * was taken over can neither accept a command nor settle one. Every change sends a NOTIFY on
 * `<schema>_commands` at its commit; the store's one LISTEN connection wakes the watchers.
 * Owners come from the leases table by the database's clock alone.
 */
import { jsonObjectSchema, type JsonObject } from '@relvo-labs/agent-provider';
import type { PoolClient } from 'pg';
import { z } from 'zod';
import { isRuntimeError, RuntimeError } from '../errors.js';
import {
  COMMAND_STATES,
  type CommandTable,
  type NewCommand,
  type SessionOwner,
  type StoredCommand,
} from './commands.js';
import { pgStoreError } from './postgres-errors.js';
import type { LeaseChange, Leases } from './postgres-lease.js';
import type { AppendWatcher } from './postgres-listen.js';

export interface PgCommandDeps {
  readonly schema: string;
  readonly leases: Leases;
  readonly watcher: AppendWatcher;
  /** Opens the store when it is not yet (connect, migrate) and lends a client. */
  run<T>(fn: (client: PoolClient) => Promise<T>): Promise<T>;
}

/** `fn` inside BEGIN … COMMIT on `client`; rolled back when it throws. */
export async function inTransaction<T>(client: PoolClient, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

const COLUMNS = `command_id, session_id, body, issued_by, issued_at, state, accepted_by,
  settlement`;

/** Bodies and settlements are JSON text, as event payloads are: jsonb refuses a NUL in a string. */
const jsonTextSchema = z.string().transform((text, ctx): JsonObject => {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'not JSON' });
    return z.NEVER;
  }
  const parsed = jsonObjectSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  ctx.addIssue({ code: 'custom', message: 'not a JSON object' });
  return z.NEVER;
});

const rowSchema = z
  .object({
    command_id: z.string().min(1),
    session_id: z.string().min(1),
    body: jsonTextSchema,
    issued_by: z.string().min(1),
    issued_at: z.string(),
    state: z.enum(COMMAND_STATES),
    accepted_by: z.string().min(1).nullable(),
    settlement: jsonTextSchema.nullable(),
  })
  .refine((r) => (r.state === 'settled') === (r.settlement !== null))
  .refine((r) => r.state !== 'accepted' || r.accepted_by !== null);

const ownerRowSchema = z.object({ session_id: z.string().min(1), owner: z.string().min(1) });

/** A damaged row names its table and nothing of its content. */
function corrupt(table: 'commands' | 'leases'): RuntimeError {
  return new RuntimeError(
    'store_unavailable',
    'log_corrupt',
    'a stored command or lease is damaged',
    {
      details: { table, damage: 'invalid' },
    },
  );
}

function duplicate(): RuntimeError {
  return new RuntimeError(
    'store_conflict',
    'store_conflict',
    'the command id is already recorded',
    {
      details: { commandId: 'duplicate' },
    },
  );
}

function toCommand(row: unknown): StoredCommand {
  const parsed = rowSchema.safeParse(row);
  if (!parsed.success) throw corrupt('commands');
  const r = parsed.data;
  return {
    commandId: r.command_id,
    sessionId: r.session_id,
    body: r.body,
    issuedBy: r.issued_by,
    issuedAt: r.issued_at,
    state: r.state,
    ...(r.accepted_by === null ? {} : { acceptedBy: r.accepted_by }),
    ...(r.settlement === null ? {} : { settlement: r.settlement }),
  };
}

export class PgCommandTable implements CommandTable {
  readonly #d: PgCommandDeps;
  readonly #table: string;
  readonly #channel: string;

  constructor(deps: PgCommandDeps) {
    this.#d = deps;
    this.#table = `${deps.schema}.commands`;
    this.#channel = `${deps.schema}_commands`;
  }

  /** Rows as read: checked by the caller before anything believes them. */
  async #rows(sql: string, params: unknown[]): Promise<unknown[]> {
    return this.#d.run(async (c) => (await c.query<Record<string, unknown>>(sql, params)).rows);
  }

  get owner(): string {
    return this.#d.leases.owner;
  }

  async enqueue(command: NewCommand): Promise<void> {
    // one statement, one transaction: the NOTIFY goes out at its commit
    const rows = await this.#d.run(async (c) => {
      const result = await c.query(
        `WITH ins AS (
           INSERT INTO ${this.#table} (command_id, session_id, body, issued_by, issued_at, state)
           VALUES ($1, $2, $3, $4, $5, 'pending') ON CONFLICT (command_id) DO NOTHING
           RETURNING session_id)
         SELECT pg_notify($6, session_id) FROM ins`,
        [
          command.commandId,
          command.sessionId,
          JSON.stringify(command.body),
          this.owner,
          command.issuedAt,
          this.#channel,
        ],
      );
      return result.rowCount;
    });
    if (rows !== 1) throw duplicate();
  }

  async get(commandId: string): Promise<StoredCommand | undefined> {
    const rows = await this.#rows(`SELECT ${COLUMNS} FROM ${this.#table} WHERE command_id = $1`, [
      commandId,
    ]);
    return rows[0] === undefined ? undefined : toCommand(rows[0]);
  }

  async unsettled(sessionId: string, limit: number): Promise<readonly StoredCommand[]> {
    const rows = await this.#rows(
      `SELECT ${COLUMNS} FROM ${this.#table} WHERE session_id = $1 AND state <> 'settled'
       ORDER BY position LIMIT $2`,
      [sessionId, limit],
    );
    return rows.map(toCommand);
  }

  async accept(commandId: string): Promise<boolean> {
    return this.#fenced(commandId, async (c, command) => {
      if (command.state !== 'pending') return false;
      await c.query(
        `UPDATE ${this.#table} SET state = 'accepted', accepted_by = $2 WHERE command_id = $1`,
        [commandId, this.owner],
      );
      return true;
    });
  }

  async settle(commandId: string, settlement: JsonObject): Promise<boolean> {
    if (settlement['outcome'] === 'withdrawn') return this.#withdraw(commandId, settlement);
    return this.#fenced(commandId, async (c, command) => {
      if (command.state === 'settled') return false;
      await c.query(
        `UPDATE ${this.#table} SET state = 'settled', settlement = $2,
           settled_at = clock_timestamp() WHERE command_id = $1`,
        [commandId, JSON.stringify(settlement)],
      );
      return true;
    });
  }

  /** Anyone may withdraw, and only a command still pending. */
  async #withdraw(commandId: string, settlement: JsonObject): Promise<boolean> {
    const rows = await this.#d.run(async (c) => {
      const result = await c.query(
        `WITH up AS (
           UPDATE ${this.#table} SET state = 'settled', settlement = $2,
             settled_at = clock_timestamp()
           WHERE command_id = $1 AND state = 'pending' RETURNING session_id)
         SELECT pg_notify($3, session_id) FROM up`,
        [commandId, JSON.stringify(settlement), this.#channel],
      );
      return result.rowCount;
    });
    return rows === 1;
  }

  /**
   * `change` inside one transaction with the command's row locked and the session's lease
   * fenced (owner, token, unexpired; extended as an append extends it). `change` returns
   * whether it changed the row; a change sends the NOTIFY at commit.
   */
  async #fenced(
    commandId: string,
    change: (c: PoolClient, command: StoredCommand) => Promise<boolean>,
  ): Promise<boolean> {
    let lease: LeaseChange | undefined;
    const changed = await this.#d.run((c) =>
      inTransaction(c, async () => {
        const found = await c.query(
          `SELECT ${COLUMNS} FROM ${this.#table} WHERE command_id = $1 FOR UPDATE`,
          [commandId],
        );
        if (found.rows[0] === undefined) return false;
        const command = toCommand(found.rows[0]);
        if (command.state === 'settled') return false;
        lease = await this.#fence(c, command);
        if (!(await change(c, command))) return false;
        await c.query('SELECT pg_notify($1, $2)', [this.#channel, command.sessionId]);
        return true;
      }),
    );
    if (lease !== undefined) this.#d.leases.apply([lease]);
    return changed;
  }

  /**
   * The session's lease is this store's. One exception: the command this store accepted for a
   * session it then closed (the close released the lease) is settled by it while no other
   * runtime holds a live lease on the session.
   */
  async #fence(c: PoolClient, command: StoredCommand): Promise<LeaseChange | undefined> {
    try {
      return await this.#d.leases.fence(c, command.sessionId, false);
    } catch (error) {
      const released =
        isRuntimeError(error) &&
        error.reason === 'session_leased' &&
        command.state === 'accepted' &&
        command.acceptedBy === this.owner;
      if (!released) throw error;
      const live = await c.query(
        `SELECT 1 FROM ${this.#d.schema}.leases WHERE session_id = $1
         AND expires_at > clock_timestamp() FOR UPDATE`,
        [command.sessionId],
      );
      if (live.rowCount !== 0) throw error;
      return undefined;
    }
  }

  async watch(onChange: () => void): Promise<() => void> {
    // opens the store first, so a closed store refuses as every other call does
    await this.#d.run(() => Promise.resolve());
    try {
      return await this.#d.watcher.watchCommands(onChange);
    } catch (error) {
      throw pgStoreError(error);
    }
  }

  async owners(): Promise<ReadonlyMap<string, SessionOwner>> {
    return this.#owners(undefined);
  }

  async ownerOf(sessionId: string): Promise<SessionOwner | undefined> {
    return (await this.#owners(sessionId)).get(sessionId);
  }

  async #owners(sessionId: string | undefined): Promise<Map<string, SessionOwner>> {
    const live = `SELECT session_id, owner FROM ${this.#d.schema}.leases
      WHERE expires_at > clock_timestamp()`;
    const rows =
      sessionId === undefined
        ? await this.#rows(live, [])
        : await this.#rows(`${live} AND session_id = $1`, [sessionId]);
    const out = new Map<string, SessionOwner>();
    for (const row of rows) {
      const parsed = ownerRowSchema.safeParse(row);
      if (!parsed.success) throw corrupt('leases');
      const { session_id: id, owner } = parsed.data;
      out.set(id, { owner, self: owner === this.owner });
    }
    return out;
  }
}
