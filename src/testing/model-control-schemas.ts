/**
 * The control messages of a scripted model running in its own process (docs/testing.md §4.1):
 * the steps it is told to answer with and what it reports back. One schema per message, shared
 * by the process and its client, so both sides refuse the same malformed input.
 */
import { z } from 'zod';
import type { RecordedRequest } from './model-server.js';
import { STREAM_ENDINGS, type ScriptedStep } from './sse-script.js';

const headers = z.record(z.string(), z.string());
const usage = z
  .object({
    input_tokens: z.number(),
    input_tokens_details: z.object({ cached_tokens: z.number() }),
    output_tokens: z.number(),
    output_tokens_details: z.object({ reasoning_tokens: z.number() }),
    total_tokens: z.number(),
  })
  .nullable();
const count = z.number().int().nonnegative();

const textStepSchema = z.strictObject({
  kind: z.literal('text'),
  deltas: z.array(z.string()),
  itemId: z.string().exactOptional(),
  responseId: z.string().exactOptional(),
  usage: usage.exactOptional(),
  delayMs: count.exactOptional(),
  closeAfterDeltas: count.exactOptional(),
  stallAfterDeltas: count.exactOptional(),
  headers: headers.exactOptional(),
});

const functionCallStepSchema = z.strictObject({
  kind: z.literal('functionCall'),
  name: z.string(),
  callId: z.string(),
  arguments: z.union([z.string(), z.record(z.string(), z.unknown())]),
  namespace: z.string().exactOptional(),
  itemId: z.string().exactOptional(),
  responseId: z.string().exactOptional(),
  usage: usage.exactOptional(),
  delayMs: count.exactOptional(),
});

const httpErrorStepSchema = z.strictObject({
  kind: z.literal('httpError'),
  status: z.number().int().min(100).max(599),
  body: z.union([z.string(), z.record(z.string(), z.unknown())]).exactOptional(),
  headers: headers.exactOptional(),
});

const rawStepSchema = z.strictObject({
  kind: z.literal('raw'),
  events: z.array(z.looseObject({ type: z.string() })),
  ending: z.enum(STREAM_ENDINGS).exactOptional(),
  delayMs: count.exactOptional(),
});

/** One scripted step as JSON; a step that fails it is refused whole, nothing is queued. */
export const scriptedStepSchema: z.ZodType<ScriptedStep> = z.discriminatedUnion('kind', [
  textStepSchema,
  functionCallStepSchema,
  httpErrorStepSchema,
  rawStepSchema,
]);

/** What a steps file (`--steps <file>`) holds: the steps to queue at start, in order. */
export const stepsFileSchema = z.array(scriptedStepSchema);

/** POST /enqueue */
export const enqueueRequestSchema = z.strictObject({ steps: z.array(scriptedStepSchema) });

/** The longest a POST /wait may hold the connection. */
export const MAX_WAIT_MS = 120_000;

/** POST /wait: until `count` model requests have arrived, at most `timeoutMs`. */
export const waitRequestSchema = z.strictObject({
  count: count,
  timeoutMs: z.number().int().positive().max(MAX_WAIT_MS),
});

/** GET /status, and the first stdout line of the process (with `controlUrl`). */
export const statusSchema = z.strictObject({
  baseUrl: z.string(),
  controlUrl: z.string(),
  pid: z.number().int().positive(),
  pending: count,
  requests: count,
});
export type ScriptedModelStatus = z.infer<typeof statusSchema>;

/** POST /clear */
export const clearedSchema = z.strictObject({ cleared: count });

const recordedRequestSchema = z
  .strictObject({
    index: count,
    method: z.string(),
    path: z.string(),
    headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
    body: z.unknown(),
    bodyBytes: count,
    step: z.enum(['text', 'functionCall', 'httpError', 'raw']).exactOptional(),
  })
  .transform((r): RecordedRequest => ({ ...r, step: r.step }));

/** GET /requests and POST /wait: what arrived at the model, in order. */
export const requestsReplySchema = z.strictObject({ requests: z.array(recordedRequestSchema) });

/** Every refusal: a code, never the refused input. */
export const controlErrorSchema = z.strictObject({
  error: z.enum(['bad_request', 'not_found', 'wait_timeout', 'too_large']),
});
export type ControlErrorCode = z.infer<typeof controlErrorSchema>['error'];
