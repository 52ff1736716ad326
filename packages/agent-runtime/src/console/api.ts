/**
 * The console's JSON API over the runtime's public surface. Every handler runs after the
 * guard let the request through; a refusal names a bounded reason token (the runtime's own
 * reason where it refused) and never echoes the request, a path or provider prose.
 */
import { interactionResponseSchema } from '@relvo-labs/agent-provider';
import { z } from 'zod';
import { isRuntimeError, type AgentRuntime, type RuntimeSession } from '@relvo-labs/agent-runtime';
import { HttpRefusal } from './http.js';
import type { SessionBook } from './sessions.js';

export const openSessionBodySchema = z.strictObject({
  profile: z.string().min(1).max(200).optional(),
});

export const turnBodySchema = z.strictObject({
  input: z.string().min(1).max(100_000),
  profile: z.string().min(1).max(200).optional(),
});

const NOT_FOUND = new Set(['unknown_session', 'unknown_interaction', 'unknown_profile']);
const CONFLICT = new Set([
  'session_busy',
  'session_not_ready',
  'session_closed',
  'runtime_shut_down',
  'interaction_settled',
  'no_active_run',
]);

/** What the runtime threw, as a refusal: its reason token, never its message. */
export function refusalOf(error: unknown): HttpRefusal {
  if (error instanceof HttpRefusal) return error;
  if (isRuntimeError(error)) {
    const status = NOT_FOUND.has(error.reason)
      ? 404
      : CONFLICT.has(error.reason)
        ? 409
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

  /** The live session, or a refusal saying whether it ended or never was. */
  async #live(sessionId: string): Promise<RuntimeSession> {
    const session = this.#runtime.session(sessionId);
    if (session !== undefined) return session;
    const known = (await this.#runtime.store.getSession(sessionId)) !== undefined;
    throw new HttpRefusal(known ? 409 : 404, known ? 'session_not_live' : 'unknown_session');
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
    const turn = await (
      await this.#live(sessionId)
    ).submitTurn({
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
    await (await this.#live(sessionId)).interrupt('interrupted from the console');
    return { status: 202, body: { interrupted: true } };
  }

  /**
   * Exactly one answer wins: the runtime settles an interaction once, and this console also
   * refuses a second answer while the first is in flight or after it settled, even an
   * identical one (which the runtime would take as a harmless retry).
   */
  async answer(sessionId: string, interactionId: string, body: unknown): Promise<ApiReply> {
    const response = parse(interactionResponseSchema, body);
    const session = await this.#live(sessionId);
    if (this.#answering.has(interactionId)) throw new HttpRefusal(409, 'interaction_settled');
    this.#answering.add(interactionId);
    try {
      const status = (await this.#book.digest(sessionId))?.statusOf(interactionId);
      if (status === 'settled') throw new HttpRefusal(409, 'interaction_settled');
      if (status === undefined) throw new HttpRefusal(404, 'unknown_interaction');
      await session.respond(interactionId, response);
    } finally {
      this.#answering.delete(interactionId);
    }
    return { status: 200, body: { answered: interactionId } };
  }
}
