/**
 * The store side of commands through the log (ADR-0052): a host command for a session another
 * runtime owns is recorded in the store's command table, carried out by the owner and settled
 * there exactly once. The table is beside the log, not in it: only the session's lease holder
 * writes the session's log, so a caller elsewhere could not append to it without breaking the
 * one-writer rule the gapless sequence rests on.
 *
 * A command's life: `pending` (recorded by the caller) → `accepted` (by the session's lease
 * holder, fenced by that lease, just before it carries it out) → `settled` (once, with the
 * outcome). A caller that stops waiting withdraws a command still `pending` (it settles
 * `withdrawn`, so no owner carries it out later); one already `accepted` is waited for.
 */
import type { JsonObject } from '@relvo-labs/agent-provider';

export const COMMAND_STATES = ['pending', 'accepted', 'settled'] as const;
export type CommandState = (typeof COMMAND_STATES)[number];

export interface StoredCommand {
  readonly commandId: string;
  readonly sessionId: string;
  /** `{ kind, ... }`, checked by the runtime that carries it out (its zod schema). */
  readonly body: JsonObject;
  /** The store owner id (see `SessionOwner`) of the runtime that recorded it. */
  readonly issuedBy: string;
  readonly issuedAt: string;
  readonly state: CommandState;
  /** The owner id that accepted it (present from `accepted` on, when one did). */
  readonly acceptedBy?: string;
  /** Present once `settled`: `{ outcome: 'done' | 'refused' | 'withdrawn', ... }`. */
  readonly settlement?: JsonObject;
}

export interface NewCommand {
  readonly commandId: string;
  readonly sessionId: string;
  readonly body: JsonObject;
  readonly issuedAt: string;
}

/** Who holds a session's lease right now (a lease past its expiry has no holder). */
export interface SessionOwner {
  /** The holder's store owner id: random per opened store, so per runtime process. */
  readonly owner: string;
  /** The holder is this store (this runtime). */
  readonly self: boolean;
}

export interface CommandTable {
  /** This store's owner id, as `SessionOwner.owner` and `StoredCommand.issuedBy` show it. */
  readonly owner: string;
  /**
   * Records a new `pending` command. An id already recorded is refused (`command_duplicate`)
   * and the stored one is left as it is.
   */
  enqueue(command: NewCommand): Promise<void>;
  get(commandId: string): Promise<StoredCommand | undefined>;
  /**
   * The sessions with a `pending` command, at most `limit` of them: an owner looks at its own
   * sessions among these rather than at each of its sessions at every wake-up.
   */
  pendingSessions(limit: number): Promise<ReadonlySet<string>>;
  /** Commands of the session not yet settled, oldest first, at most `limit`. */
  unsettled(sessionId: string, limit: number): Promise<readonly StoredCommand[]>;
  /**
   * `pending` → `accepted` by this store, only while it holds the session's lease (checked in the
   * same transaction). False when the command is not pending any more; `lease_lost` /
   * `session_leased` when the lease is not this store's.
   */
  accept(commandId: string): Promise<boolean>;
  /**
   * Settles a command once. As the session's lease holder (fenced as `accept`) from `pending`
   * or `accepted`; as anyone, `withdrawn` only and only from `pending`. False when it was
   * already settled (or, withdrawing, accepted): the earlier settlement stands.
   */
  settle(commandId: string, settlement: JsonObject): Promise<boolean>;
  /**
   * Calls `onChange` soon after any command is recorded or settled by any runtime (PostgreSQL:
   * LISTEN/NOTIFY; SQLite: a bounded poll). Spurious calls are allowed; resolves with the way
   * to stop once watching.
   */
  watch(onChange: () => void): Promise<() => void>;
  /** The live lease holder of each session that has one. */
  owners(): Promise<ReadonlyMap<string, SessionOwner>>;
  ownerOf(sessionId: string): Promise<SessionOwner | undefined>;
}
