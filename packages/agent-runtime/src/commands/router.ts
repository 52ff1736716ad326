/**
 * Commands through the log (ADR-0052). One router per runtime, with two sides:
 * - caller: a session-addressed command for a session this runtime does not have open is
 *   recorded in the store's command table and waited for, bounded; a session nobody owns (its
 *   lease lapsed) is taken over here first, as `resumeSession` does.
 * - owner: commands recorded for the sessions this runtime has open are accepted (fenced by the
 *   session's lease), carried out through the live session, which records each effect before
 *   it is delivered, and settled once. Commands one owner accepted and never settled (it died)
 *   are settled `command_outcome_unknown` by the runtime that takes the session over.
 */
import { isTerminal, SESSION_STATE_TABLE } from '@relvo-labs/agent-provider';
import { startTimer, isoAt, type RuntimeClock } from '../clock.js';
import { isRuntimeError, RuntimeError } from '../errors.js';
import type { IdFactory } from '../ids.js';
import type { RoutedTurn } from '../runtime-api.js';
import type { RuntimeSession } from '../session/session.js';
import type { CommandTable, StoredCommand } from '../store/commands.js';
import type { EventStore } from '../store/types.js';
import {
  commandBodySchema,
  commandSettlementSchema,
  asJson,
  refusalOf,
  refusedWith,
  type CommandBody,
  type CommandSettlement,
} from './body.js';

/** How many unsettled commands of a session one pass takes; the next pass takes the rest. */
const BATCH = 32;
/** Longest gap between two looks at a waited-for command when no wake-up arrives. */
const POLL_MS = 500;

export interface RouterDeps {
  readonly store: EventStore;
  readonly clock: RuntimeClock;
  readonly ids: IdFactory;
  readonly timeoutMs: number;
  /** The session when this runtime has it open. */
  live(sessionId: string): RuntimeSession | undefined;
  /** Takes a session nobody owns over (`resumeSession`). */
  resume(sessionId: string): Promise<RuntimeSession>;
  /** Every session this runtime has open. */
  liveIds(): Iterable<string>;
}

function unowned(): RuntimeError {
  return new RuntimeError(
    'provider_unavailable',
    'session_unowned',
    'no runtime carried the command out in time; it was withdrawn and will not take effect',
  );
}

function closed(): RuntimeError {
  return new RuntimeError('session_closed', 'session_closed', 'the session is closed');
}

function settlementOf(value: unknown): CommandSettlement {
  const parsed = commandSettlementSchema.safeParse(value);
  if (!parsed.success) {
    throw new RuntimeError(
      'internal',
      'command_invalid',
      'the command settlement read back is malformed',
    );
  }
  return parsed.data;
}

function outcomeUnknown(): RuntimeError {
  return new RuntimeError(
    'internal',
    'command_outcome_unknown',
    'the runtime that accepted the command ended before settling it; it may have taken effect',
  );
}

/** Carries a checked command out on a session this runtime has open. */
export async function carryOut(
  session: RuntimeSession,
  body: CommandBody,
): Promise<RoutedTurn | undefined> {
  switch (body.kind) {
    case 'respond':
      await session.respond(body.interactionId, body.response);
      return undefined;
    case 'interrupt':
      await session.interrupt(body.reason);
      return undefined;
    case 'steer':
      await session.steer(body.input);
      return undefined;
    case 'submit_turn': {
      const { input, profile, outputSchema, model, effort, summary } = body.options;
      const h = await session.submitTurn({
        input,
        ...(profile === undefined ? {} : { profile }),
        ...(outputSchema === undefined ? {} : { outputSchema }),
        ...(model === undefined ? {} : { model }),
        ...(effort === undefined ? {} : { effort }),
        ...(summary === undefined ? {} : { summary }),
      });
      return { turnId: h.turnId, runId: h.runId, profile: h.profile, providerId: h.providerId };
    }
    case 'close':
      await session.close();
      return undefined;
  }
}

export class CommandRouter {
  readonly #deps: RouterDeps;
  readonly #table: CommandTable | undefined;
  #unwatch: (() => void) | undefined;
  #draining: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  /** Callers waiting for a settlement: woken by the table's watch. */
  readonly #waiters = new Set<() => void>();

  constructor(deps: RouterDeps) {
    this.#deps = deps;
    this.#table = deps.store.commands;
  }

  /** Starts watching the table (owner side and wake-ups for callers). */
  async start(): Promise<void> {
    if (this.#table === undefined) return;
    this.#unwatch = await this.#table.watch(() => {
      this.kick();
      for (const wake of [...this.#waiters]) wake();
    });
    this.kick();
  }

  stop(): void {
    this.#stopped = true;
    this.#unwatch?.();
    this.#unwatch = undefined;
    for (const wake of [...this.#waiters]) wake();
  }

  /** Looks for commands to carry out for this runtime's sessions (coalesced). */
  kick(): void {
    if (this.#table === undefined || this.#stopped) return;
    if (this.#draining !== undefined) {
      this.#again = true;
      return;
    }
    this.#draining = this.#drain().finally(() => {
      this.#draining = undefined;
      if (this.#again) {
        this.#again = false;
        this.kick();
      }
    });
  }

  /** Resolves once no pass over the table is running (for shutdown and tests). */
  async idle(): Promise<void> {
    while (this.#draining !== undefined) await this.#draining;
  }

  /**
   * After this runtime took `sessionId` over: commands the previous owner accepted and never
   * settled may have taken effect, so they are settled as unknown, never carried out again.
   */
  async settleOrphans(sessionId: string): Promise<void> {
    const table = this.#table;
    if (table === undefined) return;
    for (;;) {
      const open = await table.unsettled(sessionId, BATCH);
      const orphans = open.filter((c) => c.state === 'accepted' && c.acceptedBy !== table.owner);
      for (const c of orphans)
        await table.settle(c.commandId, asJson(refusedWith(outcomeUnknown())));
      if (orphans.length === 0 || open.length < BATCH) break;
    }
    this.kick();
  }

  async #drain(): Promise<void> {
    const table = this.#table;
    if (table === undefined) return;
    for (const sessionId of [...this.#deps.liveIds()]) {
      if (this.#stopped) return;
      try {
        await this.#drainSession(table, sessionId);
      } catch {
        // a failed pass (store unreachable, lease lost) leaves the commands for the next pass
        // or for the runtime that takes the session over
      }
    }
  }

  async #drainSession(table: CommandTable, sessionId: string): Promise<void> {
    for (;;) {
      const open = await table.unsettled(sessionId, BATCH);
      const pending = open.filter((c) => c.state === 'pending');
      for (const c of pending) {
        const session = this.#deps.live(sessionId);
        if (session === undefined || this.#stopped) return;
        await this.#carryOutStored(table, session, c);
      }
      if (pending.length === 0 || open.length < BATCH) return;
    }
  }

  async #carryOutStored(
    table: CommandTable,
    session: RuntimeSession,
    c: StoredCommand,
  ): Promise<void> {
    const parsed = commandBodySchema.safeParse(c.body);
    if (!parsed.success) {
      const invalid = new RuntimeError(
        'invalid_request',
        'command_invalid',
        'the recorded command is malformed',
      );
      await table.settle(c.commandId, asJson(refusedWith(invalid)));
      return;
    }
    // fenced: only the lease holder accepts; a command accepted is never carried out twice
    if (!(await table.accept(c.commandId))) return;
    let settlement: CommandSettlement;
    try {
      const turn = await carryOut(session, parsed.data);
      settlement = turn === undefined ? { outcome: 'done' } : { outcome: 'done', turn };
    } catch (error) {
      settlement = refusedWith(error);
    }
    await table.settle(c.commandId, asJson(settlement));
  }

  /**
   * Caller side: carries `body` out here when the session is open here, else routes it. The
   * session's open summary decides between `unknown_session`, `session_closed` and routing.
   */
  async route(sessionId: string, body: CommandBody): Promise<RoutedTurn | undefined> {
    const local = this.#deps.live(sessionId);
    if (local !== undefined) return carryOut(local, body);
    const summary = await this.#deps.store.getSession(sessionId);
    if (summary === undefined) {
      throw new RuntimeError('unknown_session', 'unknown_session', 'no such session');
    }
    if (isTerminal(SESSION_STATE_TABLE, summary.state)) throw closed();
    const table = this.#table;
    // one runtime per store (memory): a session open in the log and not here was left by a
    // process that ended; it is taken over as resumeSession does
    if (table === undefined) return carryOut(await this.#deps.resume(sessionId), body);
    if ((await table.ownerOf(sessionId)) === undefined) {
      let taken: RuntimeSession | undefined;
      try {
        taken = await this.#deps.resume(sessionId);
      } catch (error) {
        // another runtime took it over first: the command is routed to it
        if (!isRuntimeError(error) || error.reason !== 'session_leased') throw error;
      }
      if (taken !== undefined) return carryOut(taken, body);
    }
    const commandId = this.#deps.ids('cmd');
    await table.enqueue({
      commandId,
      sessionId,
      body: asJson(body),
      issuedAt: isoAt(this.#deps.clock),
    });
    const settled = await this.#await(table, sessionId, commandId);
    if (settled.outcome === 'done') return settled.turn;
    if (settled.outcome === 'refused') throw refusalOf(settled.error);
    throw unowned();
  }

  /** Waits for the command's settlement, bounded; withdraws it when the bound passes. */
  async #await(
    table: CommandTable,
    sessionId: string,
    commandId: string,
  ): Promise<CommandSettlement> {
    // a mutable box: the deadline's callback sets it between two awaits
    const wait = { expired: false, withdrew: false };
    const arm = (): (() => void) =>
      startTimer(this.#deps.clock, this.#deps.timeoutMs, () => {
        wait.expired = true;
        for (const wake of [...this.#waiters]) wake();
      });
    let cancel = arm();
    try {
      for (;;) {
        const stored = await table.get(commandId);
        if (stored === undefined) throw unowned();
        if (stored.state === 'settled') return settlementOf(stored.settlement);
        if (this.#stopped) {
          throw new RuntimeError(
            'session_closed',
            'runtime_shut_down',
            'the runtime is shutting down',
          );
        }
        if (wait.expired) {
          if (wait.withdrew) throw outcomeUnknown();
          // still pending: withdrawn, so nobody carries it out later; accepted: its owner is
          // carrying it out and settles it (or its taker-over does), so it is waited for once more
          if (await table.settle(commandId, { outcome: 'withdrawn' }))
            return { outcome: 'withdrawn' };
          wait.withdrew = true;
          wait.expired = false;
          cancel();
          cancel = arm();
          continue;
        }
        if ((await table.ownerOf(sessionId)) === undefined) {
          const summary = await this.#deps.store.getSession(sessionId);
          if (summary === undefined || !isTerminal(SESSION_STATE_TABLE, summary.state)) {
            // its owner died with the command queued (its own pass carries it out here) or
            // accepted (the taker-over settles it as unknown at once): this runtime takes over
            await this.#takeOver(sessionId);
          } else if (stored.state === 'pending') {
            // closed (or failed) with the command still queued: nobody will carry it out
            if (await table.settle(commandId, { outcome: 'withdrawn' })) throw closed();
            continue;
          }
          // accepted, then closed by the command itself: its owner settles it
        }
        await this.#sleep();
      }
    } finally {
      cancel();
    }
  }

  async #takeOver(sessionId: string): Promise<void> {
    try {
      await this.#deps.resume(sessionId);
    } catch (error) {
      // another runtime took it first (it settles the command), or it cannot resume here:
      // the wait goes on, bounded, and ends `session_unowned`
      if (!isRuntimeError(error)) throw error;
    }
  }

  #sleep(): Promise<void> {
    return new Promise((resolve) => {
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        this.#waiters.delete(finish);
        cancel();
        resolve();
      };
      const cancel = startTimer(this.#deps.clock, POLL_MS, finish);
      this.#waiters.add(finish);
    });
  }
}
