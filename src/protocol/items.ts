/**
 * zod schemas of the tool items (`ThreadItem` variants) the tool-activity translation reads,
 * written against the generated stable schema (`ThreadItem` in ItemStartedNotification.json)
 * and checked against recordings of the real binary. Loose on purpose: only the members read
 * are constrained; anything else an item carries (output, diffs, results) is never touched.
 */
import { z } from 'zod';

const id = z.string().min(1);

export const commandExecutionItemSchema = z.looseObject({
  type: z.literal('commandExecution'),
  id,
  command: z.string(),
  cwd: z.string().optional(),
  status: z.string(),
  exitCode: z.number().int().nullable().optional(),
  durationMs: z.number().int().nullable().optional(),
  // read only to count its bytes: the text itself is never copied
  aggregatedOutput: z.string().nullable().optional(),
});

export const patchChangeKindSchema = z.looseObject({
  type: z.string(),
  move_path: z.string().nullable().optional(),
});

export const fileChangeItemSchema = z.looseObject({
  type: z.literal('fileChange'),
  id,
  changes: z.array(z.looseObject({ path: z.string(), kind: patchChangeKindSchema })),
  status: z.string(),
});

export const mcpToolCallItemSchema = z.looseObject({
  type: z.literal('mcpToolCall'),
  id,
  server: z.string(),
  tool: z.string(),
  status: z.string(),
  arguments: z.unknown().optional(),
  durationMs: z.number().int().nullable().optional(),
  error: z.looseObject({}).nullable().optional(),
});

export const webSearchItemSchema = z.looseObject({
  type: z.literal('webSearch'),
  id,
  query: z.string(),
});

export const toolItemSchema = z.discriminatedUnion('type', [
  commandExecutionItemSchema,
  fileChangeItemSchema,
  mcpToolCallItemSchema,
  webSearchItemSchema,
]);
export type CodexToolItem = z.infer<typeof toolItemSchema>;
export type CodexFileChangeItem = z.infer<typeof fileChangeItemSchema>;

export const TOOL_ITEM_TYPES = [
  'commandExecution',
  'fileChange',
  'mcpToolCall',
  'webSearch',
] as const;
