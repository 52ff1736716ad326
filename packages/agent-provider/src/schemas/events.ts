import { z } from 'zod';
import { interactionRequestSchema } from './interaction.js';
import { jsonObjectSchema } from './json.js';

export const EVENT_BOUNDS = {
  messageDelta: 100_000,
  toolName: 200,
  providerRef: 200,
  diagnosticMessage: 4000,
  extensionName: 64,
  /** Characters of the extension's `data` as canonical JSON. */
  extensionData: 200_000,
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

const extensionNameSchema = z
  .string()
  .max(EVENT_BOUNDS.extensionName)
  .regex(/^[a-z][a-z0-9_.-]*$/);

/**
 * What a provider publishes that the SPI has no shape for (a plan, a diff, a structured answer):
 * `namespace` says who defines `kind` and `data` (a provider's id), and the provider documents
 * each kind. A host that does not know a kind ignores it; the runtime stores it like any event.
 */
export const runExtensionPayloadSchema = z.strictObject({
  type: z.literal('run.extension'),
  namespace: extensionNameSchema,
  kind: extensionNameSchema,
  data: jsonObjectSchema.refine(
    (data) => JSON.stringify(data).length <= EVENT_BOUNDS.extensionData,
    { error: `data is over ${EVENT_BOUNDS.extensionData} characters as JSON` },
  ),
});

export const providerEventPayloadSchema = z.discriminatedUnion('type', [
  messageDeltaPayloadSchema,
  toolActivityPayloadSchema,
  usagePayloadSchema,
  interactionRequestedPayloadSchema,
  diagnosticPayloadSchema,
  interactionWithdrawnPayloadSchema,
  runExtensionPayloadSchema,
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
  'run.extension',
] as const satisfies readonly ProviderEventType[]);
