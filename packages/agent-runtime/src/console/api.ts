/**
 * The console's JSON API over the runtime's public surface. Every handler runs after the
 * guard let the request through; a refusal names a bounded reason token (the runtime's own
 * reason where it refused) and never echoes the request, a path or provider prose. Commands go
 * through the runtime's session-addressed methods, so they reach a session wherever it is
 * owned: carried out here, routed to the process that owns it, or taken over when nobody does.
 */
import { interactionResponseSchema, type HistoryRequest } from '@relvo-labs/agent-provider';
import { z } from 'zod';
import { isRuntimeError, type AgentRuntime } from '@relvo-labs/agent-runtime';
import { HttpRefusal } from './http.js';
import { openSessionBodySchema, turnBodySchema } from './schemas.js';
import type { SessionBook } from './sessions.js';

const NOT_FOUND = new Set(['unknown_session', 'unknown_interaction', 'unknown_profile']);
const CONFLICT = new Set([
  'session_busy',
  'revert_unsupported',
  'history_unsupported',
  'session_not_ready',
  'session_closed',
  'runtime_shut_down',
  'interaction_settled',
  'no_active_run',
  'session_leased',
  'lease_lost',
  'command_duplicate',
]);
/** Routed and nobody carried it out in time (withdrawn), or its owner ended mid-way. */
const UNAVAILABLE = new Set(['session_unowned', 'command_outcome_unknown', 'takeover_abandoned']);

/** What the runtime threw, as a refusal: its reason token, never its message. */
export function refusalOf(error: unknown): HttpRefusal {
  if (error instanceof HttpRefusal) return error;
  if (isRuntimeError(error)) {
    const status = NOT_FOUND.has(error.reason)
      ? 404
      : CONFLICT.has(error.reason)
        ? 409
        : UNAVAILABLE.has(error.reason)
          ? 503
          : error.code === 'invalid_request'
            ? 400
            : 500;
    return new HttpRefusal(status, error.reason);
  }
  return new HttpRefusal(500, 'internal_error');
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new HttpRefusal(400, 'body_invalid');
  return parsed.data;
}

export interface ApiReply {
  readonly status: number;
  readonly body: unknown;
}

export class ConsoleApi {
  readonly #runtime: AgentRuntime;
  readonly #book: SessionBook;
  readonly #workspace: string | undefined;
  /** Interactions an answer is in flight for: a second answer meanwhile is refused. */
  readonly #answering = new Set<string>();

  constructor(runtime: AgentRuntime, book: SessionBook, workspace: string | undefined) {
    this.#runtime = runtime;
    this.#book = book;
    this.#workspace = workspace;
  }

  async sessions(): Promise<ApiReply> {
    return { status: 200, body: { sessions: await this.#book.list() } };
  }

  async session(sessionId: string): Promise<ApiReply> {
    const row = await this.#book.one(sessionId);
    if (row === undefined) throw new HttpRefusal(404, 'unknown_session');
    return { status: 200, body: { session: row } };
  }

  async inbox(): Promise<ApiReply> {
    return { status: 200, body: { pending: await this.#book.inbox() } };
  }

  async events(sessionId: string, from: number, limit: number): Promise<ApiReply> {
    const events = await this.#runtime.readEvents(sessionId, { fromSequence: from, limit });
    return { status: 200, body: { events } };
  }

  /**
   * One page of the session's thread as its provider keeps it (`RuntimeSession.history`): what a
   * resumed thread did before this log held it. A read of the provider session open here only:
   * the console never starts a provider to read, and never reads through another process's.
   */
  async history(sessionId: string, options: HistoryRequest): Promise<ApiReply> {
    const session = this.#runtime.session(sessionId);
    if (session === undefined) {
      const first = await this.#runtime.readEvents(sessionId, { fromSequence: 1, limit: 1 });
      if (first.length === 0) throw new HttpRefusal(404, 'unknown_session');
      const owner = (await this.#runtime.sessionOwners()).get(sessionId);
      throw new HttpRefusal(409, owner === 'elsewhere' ? 'session_elsewhere' : 'session_not_open');
    }
    const { cursor, limit } = options;
    const page = await session.history({
      ...(cursor === undefined ? {} : { cursor }),
      ...(limit === undefined ? {} : { limit }),
    });
    return { status: 200, body: page };
  }

  async openSession(body: unknown): Promise<ApiReply> {
    const { profile } = parse(openSessionBodySchema, body);
    // the workspace is the host's choice, never the page's
    if (this.#workspace === undefined) throw new HttpRefusal(403, 'opening_disabled');
    const session = await this.#runtime.openSession({
      workspace: this.#workspace,
      ...(profile === undefined ? {} : { profile }),
    });
    return { status: 201, body: { sessionId: session.id } };
  }

  async submitTurn(sessionId: string, body: unknown): Promise<ApiReply> {
    const { input, profile } = parse(turnBodySchema, body);
    const turn = await this.#runtime.submitTurn(sessionId, {
      input,
      ...(profile === undefined ? {} : { profile }),
    });
    return {
      status: 202,
      body: {
        turnId: turn.turnId,
        runId: turn.runId,
        profile: turn.profile,
        providerId: turn.providerId,
      },
    };
  }

  async interrupt(sessionId: string): Promise<ApiReply> {
    await this.#runtime.interrupt(sessionId, 'interrupted from the console');
    return { status: 202, body: { interrupted: true } };
  }

  /** Undo last turn: the session's last turn taken out of the conversation (files stay). */
  async revert(sessionId: string): Promise<ApiReply> {
    await this.#runtime.revert(sessionId, { turns: 1 });
    return { status: 202, body: { reverted: 1 } };
  }

  /**
   * Exactly one answer wins: the runtime settles an interaction once, and this console also
   * refuses a second answer while the first is in flight or after it settled, even an
   * identical one (which the runtime would take as a harmless retry). Another console on
   * the same log may answer meanwhile: the session's owner settles it once and refuses the
   * other (`interaction_settled`).
   */
  async answer(sessionId: string, interactionId: string, body: unknown): Promise<ApiReply> {
    const response = parse(interactionResponseSchema, body);
    const digest = await this.#book.digest(sessionId);
    if (digest === undefined) throw new HttpRefusal(404, 'unknown_session');
    if (this.#answering.has(interactionId)) throw new HttpRefusal(409, 'interaction_settled');
    this.#answering.add(interactionId);
    try {
      const status = (await this.#book.digest(sessionId))?.statusOf(interactionId);
      if (status === 'settled') throw new HttpRefusal(409, 'interaction_settled');
      if (digest.closed) throw new HttpRefusal(409, 'session_closed');
      if (status === undefined) throw new HttpRefusal(404, 'unknown_interaction');
      await this.#runtime.respond(sessionId, interactionId, response);
    } finally {
      this.#answering.delete(interactionId);
    }
    return { status: 200, body: { answered: interactionId } };
  }
}
