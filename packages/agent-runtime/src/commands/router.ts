/**
 * Commands through the log (ADR-0052), the caller side; one router per runtime. A
 * session-addressed command for a session this runtime does not have open is recorded in the
 * store's command table and waited for, bounded; a session nobody owns (its lease lapsed) is
 * taken over here first, as `resumeSession` does. The owner side is `owner.ts`.
 */
import { isTerminal, SESSION_STATE_TABLE } from '@relvo-labs/agent-provider';
import { startTimer, isoAt, type RuntimeClock } from '../clock.js';
import { isRuntimeError, RuntimeError } from '../errors.js';
import type { IdFactory } from '../ids.js';
import type { RoutedTurn } from '../runtime-api.js';
import type { RuntimeSession } from '../session/session.js';
import type { CommandTable } from '../store/commands.js';
import type { EventStore } from '../store/types.js';
import {
  asJson,
  commandSettlementSchema,
  refusalOf,
  type CommandBody,
  type CommandSettlement,
} from './body.js';
import { carryOut, CommandOwner, outcomeUnknown } from './owner.js';

/** Longest gap between two looks at a waited-for command when no wake-up arrives. */
const POLL_MS = 500;
/** Longest gap between two looks for commands to carry out: a lost wake-up only delays. */
const OWNER_POLL_MS = 1_000;

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
  /** A session nobody owns that did not resume here: see `settleDeadOwner`. */
  settleDead(sessionId: string): Promise<void>;
}

export function closedSession(): RuntimeError {
  return new RuntimeError('session_closed', 'session_closed', 'the session is closed');
}

function unowned(): RuntimeError {
  return new RuntimeError(
    'provider_unavailable',
    'session_unowned',
    'no runtime carried the command out in time; it was withdrawn and will not take effect',
  );
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

export class CommandRouter {
  readonly #deps: RouterDeps;
  readonly #table: CommandTable | undefined;
  #unwatch: (() => void) | undefined;
  /** Carries out what other runtimes record for this runtime's sessions. */
  readonly owner: CommandOwner;
  #stopped = false;
  /** Wake-ups seen so far: a change between a caller's look and its sleep is not missed. */
  #changes = 0;
  /** Callers waiting for a settlement: woken by the table's watch. */
  readonly #waiters = new Set<() => void>();

  constructor(deps: RouterDeps) {
    this.#deps = deps;
    this.#table = deps.store.commands;
    this.owner = new CommandOwner(this.#table, deps);
  }

  /** Starts watching the table (owner side and wake-ups for callers). */
  async start(): Promise<void> {
    if (this.#table === undefined) return;
    this.#unwatch = await this.#table.watch(() => {
      this.#changes += 1;
      this.owner.kick();
      for (const wake of [...this.#waiters]) wake();
    });
    this.owner.kick();
    this.#armFloor();
  }

  #floor: (() => void) | undefined;

  #armFloor(): void {
    if (this.#stopped) return;
    this.#floor = startTimer(this.#deps.clock, OWNER_POLL_MS, () => {
      this.owner.kick();
      this.#armFloor();
    });
  }

  stop(): void {
    this.#stopped = true;
    this.#floor?.();
    this.owner.stop();
    this.#unwatch?.();
    this.#unwatch = undefined;
    for (const wake of [...this.#waiters]) wake();
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
    if (isTerminal(SESSION_STATE_TABLE, summary.state)) throw closedSession();
    const table = this.#table;
    // one runtime per store (memory): a session open in the log and not here was left by a
    // process that ended; it is taken over as resumeSession does
    if (table === undefined) return carryOut(await this.#deps.resume(sessionId), body);
    if ((await table.ownerOf(sessionId)) === undefined) {
      const taken = await this.#deps.resume(sessionId).catch((error: unknown) => {
        // another runtime took it over first: the command is routed to it
        if (isRuntimeError(error) && error.reason === 'session_leased') return undefined;
        throw error;
      });
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
    const wait = { expired: false, withdrew: false, triedTakeover: false };
    const arm = (): (() => void) =>
      startTimer(this.#deps.clock, this.#deps.timeoutMs, () => {
        wait.expired = true;
        for (const wake of [...this.#waiters]) wake();
      });
    let cancel = arm();
    try {
      for (;;) {
        const seen = this.#changes;
        const stored = await table.get(commandId);
        if (stored === undefined) throw unowned();
        if (stored.state === 'settled') return settlementOf(stored.settlement);
        // shutting down: a command still pending is withdrawn, so the refusal is the whole
        // truth; one accepted already is waited for, bounded as any other
        if (this.#stopped && !wait.withdrew) {
          if (await table.settle(commandId, { outcome: 'withdrawn' })) {
            throw new RuntimeError(
              'session_closed',
              'runtime_shut_down',
              'the runtime is shutting down; the command was withdrawn',
            );
          }
          wait.withdrew = true;
          continue;
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
        const summary = await this.#deps.store.getSession(sessionId);
        const closed = summary === undefined || isTerminal(SESSION_STATE_TABLE, summary.state);
        if (stored.state === 'pending' && closed) {
          // closed meanwhile: never carried out; withdrawn unless its owner settles it first
          if (await table.settle(commandId, { outcome: 'withdrawn' })) throw closedSession();
          continue;
        }
        // (accepted and closed: the close was the command, and its acceptor settles it)
        if (!closed && !wait.triedTakeover && (await table.ownerOf(sessionId)) === undefined) {
          // its owner died with the command queued (this runtime's own pass carries it out) or
          // accepted and not settled (the taker-over settles it unknown at once, rather than
          // leave it open until someone resumes the session): this runtime takes the session
          // over; once per command, as each attempt may start a provider that is then refused
          wait.triedTakeover = true;
          await this.#takeOver(sessionId);
        }
        await this.#sleep(seen);
      }
    } finally {
      cancel();
    }
  }

  async #takeOver(sessionId: string): Promise<void> {
    try {
      await this.#deps.resume(sessionId);
    } catch (error) {
      if (!isRuntimeError(error)) throw error;
      // another runtime took it first (it settles the command), or it cannot resume here: a
      // session that can never run again is settled as its dead owner left it, with its
      // commands; otherwise the wait goes on, bounded, and ends `session_unowned`
      await this.#deps.settleDead(sessionId).catch((e: unknown) => {
        if (!isRuntimeError(e)) throw e;
      });
    }
  }

  /** Until the next wake-up or poll; at once when a change arrived since `seen`. */
  #sleep(seen: number): Promise<void> {
    if (this.#changes !== seen) return Promise.resolve();
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
