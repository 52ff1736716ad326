import { z } from 'zod';
import { isJsonValue, type JsonValue } from '../json.js';
import { jsonObjectSchema, jsonValueSchema } from './json.js';

/*
 * Host tools (docs/spi.md §11.4): functions of the host a session's model may call. The tools
 * are declared at `createSession`; each call is an interaction of kind `tool_call` whose input
 * has already been validated against the tool's `inputSchema`, and whose answer is the tool's
 * output: a result or a typed failure, both size-bounded.
 */

export const HOST_TOOL_BOUNDS = {
  tools: 64,
  name: 64,
  description: 4000,
  /** Characters of the input schema as JSON. */
  inputSchema: 100_000,
  /** Characters of a call's input as JSON. */
  input: 100_000,
  /** Characters of a text result, or of a JSON result as JSON. */
  result: 100_000,
  failureMessage: 2000,
} as const;

/** What model APIs accept as a function name. */
export const HOST_TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

const B = HOST_TOOL_BOUNDS;

const jsonLength = (value: JsonValue): number => JSON.stringify(value).length;

export const hostToolNameSchema = z.string().min(1).max(B.name).regex(HOST_TOOL_NAME_PATTERN);

export const hostToolDefinitionSchema = z.strictObject({
  name: hostToolNameSchema,
  description: z.string().min(1).max(B.description),
  /** A JSON Schema of the input; it must describe an object. */
  inputSchema: jsonObjectSchema
    .refine((schema) => jsonLength(schema) <= B.inputSchema, {
      error: `inputSchema is over ${B.inputSchema} characters as JSON`,
    })
    .refine((schema) => schema.type === 'object', { error: 'inputSchema must be of type object' }),
});

// Uniqueness cannot be expressed in JSON Schema, so it lives only here.
export const hostToolsSchema = z
  .array(hostToolDefinitionSchema)
  .max(B.tools)
  .refine((tools) => new Set(tools.map((t) => t.name)).size === tools.length, {
    error: 'tool names must be unique',
  });

export const toolCallRequestSchema = z.strictObject({
  kind: z.literal('tool_call'),
  tool: hostToolNameSchema,
  /** Valid against the tool's `inputSchema` before the host sees it. */
  input: jsonValueSchema.refine((v) => isJsonValue(v) && jsonLength(v) <= B.input, {
    error: `input is over ${B.input} characters as JSON`,
  }),
});

export const TOOL_FAILURE_CODES = ['failed', 'unavailable', 'invalid_input', 'expired'] as const;

export const toolOutputSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string().max(B.result) }),
  z.strictObject({
    type: z.literal('json'),
    value: jsonValueSchema.refine((v) => isJsonValue(v) && jsonLength(v) <= B.result, {
      error: `value is over ${B.result} characters as JSON`,
    }),
  }),
  z.strictObject({
    type: z.literal('failure'),
    code: z.enum(TOOL_FAILURE_CODES),
    /** What the model is told besides the code. */
    message: z.string().min(1).max(B.failureMessage).optional(),
  }),
]);

export const toolCallResponseSchema = z.strictObject({
  kind: z.literal('tool_call'),
  output: toolOutputSchema,
});

export type HostToolDefinition = z.infer<typeof hostToolDefinitionSchema>;
export type ToolCallRequest = z.infer<typeof toolCallRequestSchema>;
export type ToolCallResponse = z.infer<typeof toolCallResponseSchema>;
export type ToolOutput = z.infer<typeof toolOutputSchema>;
export type ToolFailureCode = (typeof TOOL_FAILURE_CODES)[number];
