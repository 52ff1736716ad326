/**
 * `ProviderSession.history` over `thread/turns/list` (persisted threads only; measured on
 * 0.171.0): one page of turns, newest first, each translated into the shapes of a live turn
 * (the person's text as a `TurnInput`, the final answer as `run.message_delta`s). Nothing is
 * kept between pages: the cursor is codex's own, wrapped, so memory is one page whatever the
 * thread's length. A turn in flight is listed `running` with its input only (codex lists the
 * answer once it completed).
 */
import {
  historyRequestSchema,
  messageDeltaEvent,
  HISTORY_MAX_LIMIT,
  HISTORY_TURN_MAX_EVENTS,
  type HistoryPage,
  type HistoryTurn,
  type ProviderEventInput,
  type TurnInput,
} from '@relvo-labs/agent-provider';
import { z } from 'zod';
import type { ReleaseCapabilities } from '../capabilities/gate.js';
import { CODEX_CLIENT_METHOD } from '../protocol/wire-names.js';
import { turnsListResultSchema, type ListedTurn } from '../protocol/thread-wire.js';
import { codexRejection } from '../shared/codex-error.js';
import type { SessionState } from './state.js';

/** codex's default page (measured): what a request without `limit` gets. */
const DEFAULT_LIMIT = 25;
/** A message delta's bound (`run.message_delta`), the same split as a live turn's. */
const DELTA_MAX = 100_000;

export interface HistoryDeps {
  readonly state: SessionState;
  readonly request: (method: string, params: unknown) => Promise<unknown>;
  readonly capabilities?: ReleaseCapabilities | undefined;
  /** Holds the host's event loop open while codex answers (ADR-0009). */
  readonly during: <T>(work: () => Promise<T>) => Promise<T>;
}

const userMessageSchema = z.looseObject({
  type: z.literal('userMessage'),
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
});
const agentMessageSchema = z.looseObject({ type: z.literal('agentMessage'), text: z.string() });

const OUTCOMES: Readonly<Record<string, HistoryTurn['outcome']>> = {
  completed: 'succeeded',
  failed: 'failed',
  interrupted: 'interrupted',
  inProgress: 'running',
};

/** The page's cursor is codex's, base64url-wrapped: opaque to the host, never parsed here. */
const wrapCursor = (native: string): string => Buffer.from(native, 'utf8').toString('base64url');
function unwrapCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const native = Buffer.from(cursor, 'base64url').toString('utf8');
  return native.length > 0 && wrapCursor(native) === cursor ? native : undefined;
}

function inputOf(items: readonly unknown[]): TurnInput | undefined {
  const parts: TurnInput['parts'] = [];
  for (const item of items) {
    const user = userMessageSchema.safeParse(item);
    if (!user.success) continue;
    for (const c of user.data.content) {
      if (c.type === 'text' && c.text !== undefined && c.text.length > 0)
        parts.push({ type: 'text', text: c.text });
    }
  }
  return parts.length === 0 ? undefined : { parts: parts.slice(0, 256) };
}

function eventsOf(items: readonly unknown[]): ProviderEventInput[] {
  const events: ProviderEventInput[] = [];
  for (const item of items) {
    const agent = agentMessageSchema.safeParse(item);
    if (!agent.success) continue;
    for (
      let at = 0;
      at < agent.data.text.length && events.length < HISTORY_TURN_MAX_EVENTS;
      at += DELTA_MAX
    )
      events.push(messageDeltaEvent(agent.data.text.slice(at, at + DELTA_MAX)));
  }
  return events;
}

function translate(turn: ListedTurn): HistoryTurn {
  const items = turn.items ?? [];
  const input = inputOf(items);
  return {
    ...(input === undefined ? {} : { input }),
    events: eventsOf(items),
    // a status this release names and the adapter does not know is not called a success
    outcome: OUTCOMES[turn.status ?? ''] ?? 'failed',
  };
}

export async function readHistory(deps: HistoryDeps, request: unknown): Promise<HistoryPage> {
  const parsed = historyRequestSchema.safeParse(request);
  if (!parsed.success) {
    throw codexRejection('invalid_request', 'the codex history request is malformed', {
      providerCode: 'invalid_input',
    });
  }
  if (deps.state.closing || deps.state.ended !== undefined)
    throw codexRejection('session_closed', 'the codex session is closed');
  const lacking = deps.capabilities?.refusal(['session.history']);
  if (lacking !== undefined) throw lacking;
  const { cursor, limit } = parsed.data;
  const native = cursor === undefined ? undefined : unwrapCursor(cursor);
  if (cursor !== undefined && native === undefined) {
    throw codexRejection('invalid_request', 'the history cursor is not one this session gave', {
      providerCode: 'invalid_input',
    });
  }
  const params = {
    threadId: deps.state.threadId,
    limit: limit ?? DEFAULT_LIMIT,
    sortDirection: 'desc',
    itemsView: 'summary',
    ...(native === undefined ? {} : { cursor: native }),
  };
  const listed = turnsListResultSchema.safeParse(
    await deps.during(() => deps.request(CODEX_CLIENT_METHOD.threadTurnsList, params)),
  );
  if (!listed.success || listed.data.data.length > HISTORY_MAX_LIMIT) {
    throw codexRejection('provider_contract_violation', 'codex listed the turns unreadably');
  }
  const next = listed.data.nextCursor;
  return {
    turns: listed.data.data.map(translate),
    ...(next === null || next === undefined ? {} : { nextCursor: wrapCursor(next) }),
  };
}
