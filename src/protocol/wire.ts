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

/** Also the reply of `thread/resume` and `thread/fork`: the thread and its model settings. */
export const threadStartResultSchema = z.looseObject({
  thread: z.looseObject({ id: nonEmpty }),
  // the thread's defaults a per-run model or effort is undone with (ADR-0041)
  model: z.string().min(1).optional().catch(undefined),
  reasoningEffort: z.string().min(1).nullable().optional().catch(undefined),
});

/** `config/read`: only the configured reasoning summary (ADR-0041). */
export const configReadResultSchema = z.looseObject({
  config: z.looseObject({
    model_reasoning_summary: z.string().nullable().optional().catch(undefined),
  }),
});

export const turnStartResultSchema = z.looseObject({
  turn: z.looseObject({ id: nonEmpty }),
});

/** `account/read`: only whether codex needs a login and which kind it has (never the email). */
export const accountReadResultSchema = z.looseObject({
  account: z.looseObject({ type: z.string(), planType: z.unknown().optional() }).nullable(),
  requiresOpenaiAuth: z.boolean(),
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
