import { z } from 'zod';
import { interactionRequestSchema } from './interaction.js';
import { jsonObjectSchema } from './json.js';

export const EVENT_BOUNDS = {
  messageDelta: 100_000,
  toolName: 200,
  providerRef: 200,
  diagnosticMessage: 4000,
} as const;

export const TOOL_PHASES = ['invoked', 'succeeded', 'failed'] as const;
export const DIAGNOSTIC_LEVELS = ['debug', 'info', 'warning'] as const;

const providerRefSchema = z.string().min(1).max(EVENT_BOUNDS.providerRef);
const tokenCount = z.number().int().nonnegative();

export const messageDeltaPayloadSchema = z.strictObject({
  type: z.literal('run.message_delta'),
  text: z.string().min(1).max(EVENT_BOUNDS.messageDelta),
});

export const toolActivityPayloadSchema = z.strictObject({
  type: z.literal('run.tool_activity'),
  toolName: z.string().min(1).max(EVENT_BOUNDS.toolName),
  phase: z.enum(TOOL_PHASES),
  detail: jsonObjectSchema.optional(),
});

export const usagePayloadSchema = z.strictObject({
  type: z.literal('run.usage'),
  usage: z.strictObject({
    inputTokens: tokenCount.optional(),
    outputTokens: tokenCount.optional(),
    totalTokens: tokenCount.optional(),
  }),
});

export const interactionRequestedPayloadSchema = z.strictObject({
  type: z.literal('interaction.requested'),
  request: interactionRequestSchema,
  providerRef: providerRefSchema,
});

export const diagnosticPayloadSchema = z.strictObject({
  type: z.literal('diagnostic'),
  level: z.enum(DIAGNOSTIC_LEVELS),
  message: z.string().min(1).max(EVENT_BOUNDS.diagnosticMessage),
  detail: jsonObjectSchema.optional(),
});

export const interactionWithdrawnPayloadSchema = z.strictObject({
  type: z.literal('interaction.withdrawn'),
  providerRef: providerRefSchema,
});

export const providerEventPayloadSchema = z.discriminatedUnion('type', [
  messageDeltaPayloadSchema,
  toolActivityPayloadSchema,
  usagePayloadSchema,
  interactionRequestedPayloadSchema,
  diagnosticPayloadSchema,
  interactionWithdrawnPayloadSchema,
]);

/** Strict: identity and ordering members are the runtime's to add, never the provider's. */
export const providerEventInputSchema = z.strictObject({
  payload: providerEventPayloadSchema,
});

export type ProviderEventPayload = z.infer<typeof providerEventPayloadSchema>;
export type ProviderEventInput = z.infer<typeof providerEventInputSchema>;
export type ProviderEventType = ProviderEventPayload['type'];

export const PROVIDER_EMITTABLE_EVENT_TYPES: readonly ProviderEventType[] = Object.freeze([
  'run.message_delta',
  'run.tool_activity',
  'run.usage',
  'interaction.requested',
  'diagnostic',
  'interaction.withdrawn',
] as const satisfies readonly ProviderEventType[]);
