/**
 * The `run.extension` events this provider publishes (namespace `codex`), one zod schema per
 * kind: the single source of truth for what each `data` carries (docs/behaviour.md, ADR-0039).
 * Everything is bounded here; what codex sends beyond these members is never copied.
 */
import { z } from 'zod';

export const CODEX_EXTENSION_NAMESPACE = 'codex';

export const CODEX_EVENT_BOUNDS = {
  planSteps: 100,
  planStep: 2_000,
  planExplanation: 4_000,
  diffFiles: 500,
  diffPath: 1_000,
  /** Characters of patch text a `diff` event carries when the host opted in. */
  diffPatch: 100_000,
  reasoningDelta: 20_000,
  itemId: 200,
} as const;

export const CODEX_PLAN_STATUSES = ['pending', 'in_progress', 'completed'] as const;

/** `plan`: the whole plan each time the model updates it (`update_plan`). */
export const codexPlanDataSchema = z.strictObject({
  explanation: z.string().min(1).max(CODEX_EVENT_BOUNDS.planExplanation).optional(),
  steps: z
    .array(
      z.strictObject({
        step: z.string().max(CODEX_EVENT_BOUNDS.planStep),
        status: z.enum(CODEX_PLAN_STATUSES),
      }),
    )
    .max(CODEX_EVENT_BOUNDS.planSteps),
  /** Steps past the bound were left off. */
  truncated: z.literal(true).optional(),
});

const lineCount = z.number().int().nonnegative();

/**
 * `diff`: the turn's aggregated diff so far (files codex patched; not files a shell command
 * wrote). Paths are workspace-relative, or `<outside-workspace>`; the patch text only under
 * `events.diff: 'patch'`, and never when a file lies outside the workspace.
 */
export const codexDiffDataSchema = z.strictObject({
  files: z
    .array(
      z.strictObject({
        path: z.string().min(1).max(CODEX_EVENT_BOUNDS.diffPath),
        change: z.enum(['add', 'delete', 'update', 'rename']),
        added: lineCount,
        removed: lineCount,
      }),
    )
    .max(CODEX_EVENT_BOUNDS.diffFiles),
  /** Files past the bound were left off (their counts are still in the totals). */
  truncated: z.literal(true).optional(),
  added: lineCount,
  removed: lineCount,
  patch: z.string().max(CODEX_EVENT_BOUNDS.diffPatch).optional(),
  /** The host asked for the patch text and it is not here: why. */
  patchWithheld: z.enum(['outside_workspace', 'too_large']).optional(),
});

/** `reasoning_summary`: one piece of a reasoning summary as it streams (never raw reasoning). */
export const codexReasoningSummaryDataSchema = z.strictObject({
  itemId: z.string().min(1).max(CODEX_EVENT_BOUNDS.itemId),
  summaryIndex: z.number().int().nonnegative(),
  delta: z.string().min(1).max(CODEX_EVENT_BOUNDS.reasoningDelta),
});

export const CODEX_EXTENSION_KINDS = {
  plan: codexPlanDataSchema,
  diff: codexDiffDataSchema,
  reasoning_summary: codexReasoningSummaryDataSchema,
} as const;

export type CodexExtensionKind = keyof typeof CODEX_EXTENSION_KINDS;
export type CodexPlanData = z.infer<typeof codexPlanDataSchema>;
export type CodexDiffData = z.infer<typeof codexDiffDataSchema>;
export type CodexReasoningSummaryData = z.infer<typeof codexReasoningSummaryDataSchema>;

/** Which events a session publishes: host configuration (`events` in the provider options). */
export const codexEventsOptionsSchema = z.strictObject({
  /** `plan` events; also offers codex's `update_plan` tool to the model. */
  plan: z.boolean().default(false),
  /** `diff` events: `summary` = paths and line counts, `patch` = also the patch text. */
  diff: z.enum(['none', 'summary', 'patch']).default('none'),
  /** `reasoning_summary` events (the model's summary; raw reasoning is never published). */
  reasoningSummary: z.boolean().default(false),
});
export type CodexEventsOptions = z.output<typeof codexEventsOptionsSchema>;

/**
 * The `-c` overrides the opt-ins need: codex offers the model its `update_plan` tool only
 * under `tools.update_plan.enabled` (measured on 0.171.0). A host's own transport adds it itself.
 */
export function eventsArgs(events: CodexEventsOptions): string[] {
  return events.plan ? ['-c', 'tools.update_plan.enabled=true'] : [];
}
