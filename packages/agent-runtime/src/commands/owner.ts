/**
 * The owner side of commands through the log (ADR-0052): commands recorded for the sessions
 * this runtime has open are accepted (fenced by the session's lease), carried out through the
 * live session, which records each effect before it is delivered, and settled once. Commands
 * an earlier owner accepted and never settled (it died) are settled `command_outcome_unknown`
 * by the runtime that takes the session over.
 */
import { RuntimeError } from '../errors.js';
import type { RoutedTurn } from '../runtime-api.js';
import type { RuntimeSession } from '../session/session.js';
import type { CommandTable, StoredCommand } from '../store/commands.js';
import {
  asJson,
  commandBodySchema,
  refusedWith,
  type CommandBody,
  type CommandSettlement,
} from './body.js';

/** How many unsettled commands of a session one pass takes; the next pass takes the rest. */
const BATCH = 32;
/** How many sessions with pending commands one look returns. */
const PENDING_SESSIONS = 1_000;

export function outcomeUnknown(): RuntimeError {
  return new RuntimeError(
    'internal',
    'command_outcome_unknown',
    'the runtime that accepted the command ended before settling it; it may have taken effect',
  );
}

export interface OwnerDeps {
  /** The session when this runtime has it open. */
  live(sessionId: string): RuntimeSession | undefined;
  /** Every session this runtime has open. */
  liveIds(): Iterable<string>;
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
    case 'revert':
      await session.revert({
        turns: body.turns,
        ...(body.profile === undefined ? {} : { profile: body.profile }),
      });
      return undefined;
  }
}

export class CommandOwner {
  readonly #deps: OwnerDeps;
  readonly #table: CommandTable | undefined;
  #draining: Promise<void> | undefined;
  #again = false;
  #stopped = false;

  constructor(table: CommandTable | undefined, deps: OwnerDeps) {
    this.#table = table;
    this.#deps = deps;
  }

  stop(): void {
    this.#stopped = true;
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
   * As the new lease holder of a session that will not run here (it is closed, or is being
   * closed as failed): every unsettled command is settled now, an accepted one as unknown and a
   * pending one refused with `pendingError`, so no caller waits on it and nobody carries it out.
   */
  async settleAll(sessionId: string, pendingError: RuntimeError): Promise<void> {
    const table = this.#table;
    if (table === undefined) return;
    for (;;) {
      const open = await table.unsettled(sessionId, BATCH);
      for (const c of open) {
        const error = c.state === 'accepted' ? outcomeUnknown() : pendingError;
        await table.settle(c.commandId, asJson(refusedWith(error)));
      }
      if (open.length < BATCH) return;
    }
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
    const live = [...this.#deps.liveIds()];
    if (live.length === 0) return;
    // one look at which sessions have work, then only this runtime's among them (all of them
    // when more sessions have work than one look returns)
    let pending: ReadonlySet<string> | undefined;
    try {
      pending = await table.pendingSessions(PENDING_SESSIONS);
    } catch {
      return; // the next pass, or the floor's, looks again
    }
    const mine = pending.size < PENDING_SESSIONS ? live.filter((id) => pending.has(id)) : live;
    // sessions side by side, each one's commands in the order they were recorded
    await Promise.all(
      mine.map((sessionId) =>
        this.#drainSession(table, sessionId).catch(() => {
          // a failed pass (store unreachable, lease lost) leaves the commands for the next
          // pass or for the runtime that takes the session over
        }),
      ),
    );
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
}
