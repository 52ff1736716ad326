/**
 * zod schemas of the Codex app-server frames the adapter consumes, written against the
 * generated stable schema (first 0.156.1; every reviewed release since, fixtures/compat). Response and
 * notification objects are loose on purpose: the real binary sends members the stable schema
 * does not promise, and newer releases add more (docs/protocol.md, "Ordering facts and quirks"). Only the members the adapter
 * reads are constrained.
 */
import { z } from 'zod';

const nonEmpty = z.string().min(1);

/** A JSON-RPC id as the adapter accepts it: a string or a safe integer. */
export const requestIdSchema = z.union([
  z.string(),
  z.number().refine((n) => Number.isSafeInteger(n)),
]);
export type CodexRequestId = z.infer<typeof requestIdSchema>;

export const initializeResultSchema = z.looseObject({
  userAgent: z.string(),
  codexHome: z.unknown().optional(),
});

export const threadStartResultSchema = z.looseObject({
  thread: z.looseObject({ id: nonEmpty }),
});

export const turnStartResultSchema = z.looseObject({
  turn: z.looseObject({ id: nonEmpty }),
});

/**
 * The body of `item/agentMessage/delta` beyond its turn scope (`threadId`, `turnId`). A delta
 * must name its item to be published. The correlator has checked the scope
 * before a delta is translated, so the hot path parses only this part, once per frame —
 * `z.object` (unknown members accepted, not copied), not a loose object whose copy of every
 * extra member cost more than the check itself.
 */
export const agentMessageDeltaBodySchema = z.object({
  itemId: nonEmpty,
  delta: nonEmpty,
});

/** The whole agent-message delta as the adapter checks it: its turn scope plus the body. */
export const agentMessageDeltaSchema = agentMessageDeltaBodySchema.extend({
  threadId: nonEmpty,
  turnId: nonEmpty,
});

const tokenCount = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** Only the thread's running `total` is read (docs/adr/ADR-0012-run-usage.md). */
export const tokenUsageUpdatedSchema = z.looseObject({
  threadId: nonEmpty,
  tokenUsage: z.looseObject({
    total: z.looseObject({
      inputTokens: tokenCount,
      outputTokens: tokenCount,
      totalTokens: tokenCount,
    }),
  }),
});

/** `account/read`: only whether codex needs a login and which kind it has (never the email). */
export const accountReadResultSchema = z.looseObject({
  account: z.looseObject({ type: z.string(), planType: z.unknown().optional() }).nullable(),
  requiresOpenaiAuth: z.boolean(),
});

export const errorNotificationSchema = z.looseObject({
  error: z.looseObject({ codexErrorInfo: z.unknown().optional() }),
  willRetry: z.boolean().optional(),
});

export const turnCompletedSchema = z.looseObject({
  threadId: nonEmpty,
  turn: z.looseObject({
    id: nonEmpty,
    status: z.unknown().optional(),
    error: z.unknown().optional(),
  }),
});

export const serverRequestResolvedSchema = z.looseObject({
  threadId: nonEmpty,
  requestId: requestIdSchema,
});

/** The one map key for a request id, wherever ids are remembered: `1` and `"1"` differ. */
export function requestIdKey(id: CodexRequestId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}

// ---- session-less reads: models and rate limits (src/models.ts, src/rate-limits.ts) -------

/** One `model/list` entry: only what the adapter publishes is read; descriptions never are. */
export const modelEntrySchema = z.looseObject({
  id: z.string(),
  model: z.string(),
  displayName: z.string(),
  hidden: z.boolean(),
  isDefault: z.boolean(),
  defaultReasoningEffort: z.string(),
  supportedReasoningEfforts: z.array(z.looseObject({ reasoningEffort: z.string() })),
});

/** `model/list`: the entries are checked one by one (a bad one is skipped, not fatal). */
export const modelListResultSchema = z.looseObject({
  data: z.array(z.unknown()),
  nextCursor: z.string().nullable().optional(),
});

const rateLimitWindowSchema = z.looseObject({
  usedPercent: z.number(),
  windowDurationMins: z.number().nullable().optional(),
  resetsAt: z.number().nullable().optional(),
});

/** A `RateLimitSnapshot` (the read's `rateLimits` and the update's); every member may be null. */
export const rateLimitSnapshotSchema = z.looseObject({
  limitId: z.string().nullable().optional(),
  primary: rateLimitWindowSchema.nullable().optional(),
  secondary: rateLimitWindowSchema.nullable().optional(),
  credits: z.looseObject({ hasCredits: z.boolean(), unlimited: z.boolean() }).nullable().optional(),
  planType: z.string().nullable().optional(),
  rateLimitReachedType: z.string().nullable().optional(),
});

/** `account/rateLimits/read` and `account/rateLimits/updated` both carry `rateLimits`. */
export const rateLimitsCarrierSchema = z.looseObject({ rateLimits: rateLimitSnapshotSchema });
