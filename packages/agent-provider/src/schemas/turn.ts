import { z } from 'zod';
import { jsonObjectSchema } from './json.js';

export const TURN_INPUT_MAX_PARTS = 256;
export const TEXT_PART_MAX = 1_000_000;
export const FILE_REF_PATH_MAX = 4096;

export const textPartSchema = z.strictObject({
  type: z.literal('text'),
  text: z.string().min(1).max(TEXT_PART_MAX),
});

// Patterns (not refinements) so the rules also appear in the generated JSON Schema.
export const fileRefPartSchema = z.strictObject({
  type: z.literal('file_ref'),
  path: z
    .string()
    .min(1)
    .max(FILE_REF_PATH_MAX)
    .regex(/^(?!\/)/, { error: 'path must be relative (no leading slash)' })
    .regex(/^(?![A-Za-z]:)/, { error: 'path must not start with a drive letter' })
    .regex(/^(?!(?:[\s\S]*[/\\])?\.\.(?:[/\\]|$))/, {
      error: 'path must not contain a ".." segment',
    }),
});

export const turnInputPartSchema = z.discriminatedUnion('type', [
  textPartSchema,
  fileRefPartSchema,
]);

export const turnInputSchema = z.strictObject({
  parts: z.array(turnInputPartSchema).min(1).max(TURN_INPUT_MAX_PARTS),
  metadata: jsonObjectSchema.optional(),
});

/*
 * Per-run options (ADR-0041): what one run asks of the model, each declared by `run.options`.
 * They apply to that run only; a provider whose native settings persist restores its defaults.
 */
export const RUN_MODEL_MAX = 200;
export const runModelSchema = z
  .string()
  .min(1)
  .max(RUN_MODEL_MAX)
  .regex(/^\S+$/, { error: 'model must be one token without spaces' });
export const runEffortSchema = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[a-z][a-z0-9_-]*$/, { error: 'effort must be a lower-case token' });
export const RUN_SUMMARIES = ['auto', 'concise', 'detailed', 'none'] as const;
export const runSummarySchema = z.enum(RUN_SUMMARIES);

export const runOptionsSchema = z.strictObject({
  model: runModelSchema.optional(),
  effort: runEffortSchema.optional(),
  summary: runSummarySchema.optional(),
});

export type RunOptions = z.infer<typeof runOptionsSchema>;
export type RunSummary = z.infer<typeof runSummarySchema>;
export type TextPart = z.infer<typeof textPartSchema>;
export type FileRefPart = z.infer<typeof fileRefPartSchema>;
export type TurnInputPart = z.infer<typeof turnInputPartSchema>;
export type TurnInput = z.infer<typeof turnInputSchema>;
