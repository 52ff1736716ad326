/**
 * Every inbound notification, decoded once at the edge (the connection) into one discriminated
 * union on `method`: one zod schema per method, each carrying the `threadId`/`turnId` the wire
 * has. Nothing downstream parses params again; it switches on `method`. Shapes follow the
 * recordings of the real binary (fixtures/transcripts) and the generated stable schema; members
 * the adapter does not read are not copied. A method without a schema here, or a known one whose
 * params do not fit, becomes the `unknown` member: still routed by its scope (a frame of the turn
 * is progress for the stall watchdog, a foreign one is reported), never applied.
 *
 * A new notification: add its schema to `NOTIFICATIONS` and handle it in the turn or session.
 */
import { z } from 'zod';
import { toolItemSchema, TOOL_ITEM_TYPES, type CodexToolItem } from './items.js';
import { rateLimitsCarrierSchema, requestIdSchema } from './wire.js';

const nonEmpty = z.string().min(1);
const tokenCount = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** A thread's running token counters (ADR-0012). */
export interface UsageTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

/** The body of an `error` notification as a run reads it. */
const errorBodySchema = z.looseObject({
  error: z.looseObject({ codexErrorInfo: z.unknown().optional() }),
  willRetry: z.boolean().optional(),
});

const TOOL_TYPES: ReadonlySet<string> = new Set(TOOL_ITEM_TYPES);

/** `item/started` / `item/completed`: the item's identity, its tool shape when it is one. */
const itemScope = z
  .object({
    threadId: nonEmpty,
    turnId: nonEmpty,
    item: z.looseObject({ type: z.string(), id: nonEmpty, processId: z.unknown().optional() }),
  })
  .transform(({ threadId, turnId, item }) => {
    let tool: CodexToolItem | undefined;
    if (TOOL_TYPES.has(item.type)) {
      const parsed = toolItemSchema.safeParse(item);
      if (parsed.success) tool = parsed.data;
    }
    return {
      threadId,
      turnId,
      itemId: item.id,
      itemType: item.type,
      tool,
      // a command announced before its approval: codex has started no process for it yet
      awaitsApproval: item.type === 'commandExecution' && item.processId === null,
    };
  });

/**
 * One schema per notification method the adapter reads (the protocol review diffs exactly these:
 * scripts/lib/review); the decoded member is `{ method, ...output }`.
 */
const NOTIFICATIONS = {
  'turn/started': z
    .object({ threadId: nonEmpty, turn: z.object({ id: nonEmpty }) })
    .transform(({ threadId, turn }) => ({ threadId, turnId: turn.id })),
  'turn/completed': z
    .object({
      threadId: nonEmpty,
      turn: z.object({
        id: nonEmpty,
        status: z.unknown().optional(),
        error: z.unknown().optional(),
      }),
    })
    .transform(({ threadId, turn }) => ({
      threadId,
      turnId: turn.id,
      status: turn.status,
      error: turn.error,
    })),
  // the hot path: z.object accepts unknown members without copying them
  'item/agentMessage/delta': z.object({
    threadId: nonEmpty,
    turnId: nonEmpty,
    itemId: nonEmpty,
    delta: nonEmpty,
  }),
  'item/started': itemScope,
  'item/completed': itemScope,
  // only the thread's running `total` is read (ADR-0012); recorded with a turnId on every release
  'thread/tokenUsage/updated': z
    .object({
      threadId: nonEmpty,
      turnId: nonEmpty.optional(),
      tokenUsage: z.object({
        total: z.object({
          inputTokens: tokenCount,
          outputTokens: tokenCount,
          totalTokens: tokenCount,
        }),
      }),
    })
    .transform(({ threadId, turnId, tokenUsage }) => ({
      threadId,
      turnId,
      total: tokenUsage.total,
    })),
  error: z
    .looseObject({ threadId: nonEmpty, turnId: nonEmpty, willRetry: z.unknown().optional() })
    .transform((params) => {
      const body = errorBodySchema.safeParse(params);
      return {
        threadId: params.threadId,
        turnId: params.turnId,
        /** The upstream error object, when the body is well-formed; classified, never copied. */
        error: body.success ? body.data.error : undefined,
        /** codex says it retries, with a well-formed body (what a run counts). */
        retrying: body.success && body.data.willRetry === true,
        /** codex says it retries, whatever the body (what the stall watchdog discounts). */
        retryNotice: params.willRetry === true,
      };
    }),
  'serverRequest/resolved': z.object({ threadId: nonEmpty, requestId: requestIdSchema }),
  // the whole plan each time (update_plan, offered under `tools.update_plan.enabled`)
  'turn/plan/updated': z.object({
    threadId: nonEmpty,
    turnId: nonEmpty,
    explanation: z.string().nullish(),
    plan: z.array(z.object({ step: z.string(), status: z.string() })),
  }),
  // the turn's aggregated git-style diff so far; repeated, and once more before turn/completed
  'turn/diff/updated': z.object({ threadId: nonEmpty, turnId: nonEmpty, diff: z.string() }),
  // the summary only: `item/reasoning/textDelta` (raw reasoning) has no schema and is never read
  'item/reasoning/summaryTextDelta': z.object({
    threadId: nonEmpty,
    turnId: nonEmpty,
    itemId: nonEmpty,
    delta: z.string(),
    summaryIndex: z.number().int().nonnegative(),
  }),
  // account-wide, sent during turns: no thread or turn, so never routed to a run
  'account/rateLimits/updated': rateLimitsCarrierSchema.transform(({ rateLimits }) => ({
    threadId: undefined,
    rateLimits,
  })),
} as const;

type Schemas = typeof NOTIFICATIONS;
export type InboundMethod = keyof Schemas;

/** A notification whose method the adapter does not read, or whose params do not fit. */
export interface UnknownNotification {
  readonly method: 'unknown';
  /** For diagnostics and tests only; never published. */
  readonly wireMethod: string;
  readonly threadId: string | undefined;
  readonly turnId: string | undefined;
}

export type InboundNotification =
  | { [M in InboundMethod]: { readonly method: M } & Readonly<z.output<Schemas[M]>> }[InboundMethod]
  | UnknownNotification;

export type InboundOf<M extends InboundMethod> = Extract<InboundNotification, { method: M }>;

/** The scope an unknown notification still carries: `turnId`, else `turn.id`. */
const looseScope = z.looseObject({
  threadId: nonEmpty,
  turnId: nonEmpty.optional(),
  turn: z.looseObject({ id: nonEmpty }).optional().catch(undefined),
});

function unknownNotification(method: string, params: unknown): UnknownNotification {
  const scope = looseScope.safeParse(params);
  if (!scope.success)
    return { method: 'unknown', wireMethod: method, threadId: undefined, turnId: undefined };
  const turnId = scope.data.turnId ?? scope.data.turn?.id;
  return { method: 'unknown', wireMethod: method, threadId: scope.data.threadId, turnId };
}

const SCHEMA_OF: ReadonlyMap<string, z.ZodType<object>> = new Map(Object.entries(NOTIFICATIONS));

const DELTA = 'item/agentMessage/delta';

function ownNonEmpty(params: object, key: string): string | undefined {
  if (!Object.hasOwn(params, key)) return undefined;
  const value = (params as Record<string, unknown>)[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * Text deltas are nearly every frame of a turn, and zod's parse allocates a result, a payload and
 * an issue list per member: checked by hand, they cost one object. It accepts only what the
 * delta schema accepts (own, non-empty strings) and yields the same output; anything else takes
 * the schema's path, so the schema still decides every doubtful frame.
 */
function fastDelta(params: unknown): InboundOf<'item/agentMessage/delta'> | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const threadId = ownNonEmpty(params, 'threadId');
  const turnId = ownNonEmpty(params, 'turnId');
  const itemId = ownNonEmpty(params, 'itemId');
  const delta = ownNonEmpty(params, 'delta');
  if (threadId === undefined || turnId === undefined || itemId === undefined) return undefined;
  if (delta === undefined) return undefined;
  return { method: DELTA, threadId, turnId, itemId, delta };
}

/** The one decode of an inbound notification. Total: it never throws. */
export function decodeNotification(method: string, params: unknown): InboundNotification {
  if (method === DELTA) {
    const fast = fastDelta(params);
    if (fast !== undefined) return fast;
  }
  return decodeBySchema(method, params);
}

/** The schemas' decode alone: what every fast path must agree with (tests hold them together). */
export function decodeBySchema(method: string, params: unknown): InboundNotification {
  const schema = SCHEMA_OF.get(method);
  if (schema === undefined) return unknownNotification(method, params);
  const parsed = schema.safeParse(params);
  if (!parsed.success) return unknownNotification(method, params);
  // the parsed object is a fresh copy of our own: naming its method costs less than a spread
  const decoded = parsed.data as { method?: string };
  decoded.method = method;
  return decoded as InboundNotification;
}

/**
 * The scope of a server request, decoded once where it enters the session: which thread, turn
 * and item it names. Its body is checked by the bridge that answers it (src/interactions/).
 */
export interface ServerRequestScope {
  readonly threadId: string | undefined;
  readonly turnId: string | undefined;
  readonly itemId: string | undefined;
}

const requestScope = z.looseObject({
  threadId: nonEmpty.optional().catch(undefined),
  turnId: nonEmpty.optional().catch(undefined),
  itemId: nonEmpty.optional().catch(undefined),
});

const NO_SCOPE: ServerRequestScope = Object.freeze({
  threadId: undefined,
  turnId: undefined,
  itemId: undefined,
});

export function decodeServerRequestScope(params: unknown): ServerRequestScope {
  const parsed = requestScope.safeParse(params);
  if (!parsed.success) return NO_SCOPE;
  const { threadId, turnId, itemId } = parsed.data;
  return { threadId, turnId, itemId };
}

/** The notification methods the adapter reads (documentation and tests). */
export const INBOUND_METHODS = Object.keys(NOTIFICATIONS) as readonly InboundMethod[];
