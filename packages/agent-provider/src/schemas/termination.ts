import { z } from 'zod';
import { agentErrorSchema } from './error.js';
import { interactionRequestSchema, interactionResponseSchema } from './interaction.js';

export const TERMINATION_REASON_MAX = 2000;

/** ISO-8601 UTC instant, as `Date.prototype.toISOString` writes it. */
export const timestampSchema = z.iso.datetime();
export type Timestamp = z.infer<typeof timestampSchema>;

const reasonSchema = z.string().max(TERMINATION_REASON_MAX);

/** What a provider's `completion` resolves to (docs/spi.md §9); the runtime adds the timestamp. */
export const providerRunTerminationSchema = z.discriminatedUnion('outcome', [
  z.strictObject({ outcome: z.literal('succeeded') }),
  z.strictObject({ outcome: z.literal('failed'), error: agentErrorSchema }),
  z.strictObject({ outcome: z.literal('interrupted'), reason: reasonSchema.optional() }),
]);
export type ProviderRunTermination = z.infer<typeof providerRunTerminationSchema>;

export const RUN_OUTCOMES = ['succeeded', 'failed', 'interrupted'] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

/** The runtime's stored form: one per run, stamped with `at`. */
export const runTerminationSchema = z.discriminatedUnion('outcome', [
  z.strictObject({ outcome: z.literal('succeeded'), at: timestampSchema }),
  z.strictObject({ outcome: z.literal('failed'), at: timestampSchema, error: agentErrorSchema }),
  z.strictObject({
    outcome: z.literal('interrupted'),
    at: timestampSchema,
    reason: reasonSchema.optional(),
  }),
]);
export type RunTermination = z.infer<typeof runTerminationSchema>;

export const INTERACTION_STATUSES = ['pending', 'settled'] as const;
export const interactionStatusSchema = z.enum(INTERACTION_STATUSES);
export type InteractionStatus = z.infer<typeof interactionStatusSchema>;

export const SETTLEMENT_OUTCOMES = ['responded', 'cancelled', 'expired', 'withdrawn'] as const;
export const settlementOutcomeSchema = z.enum(SETTLEMENT_OUTCOMES);
export type SettlementOutcome = z.infer<typeof settlementOutcomeSchema>;

export const interactionSettlementSchema = z
  .strictObject({
    outcome: settlementOutcomeSchema,
    settledAt: timestampSchema,
    response: interactionResponseSchema.optional(),
    error: agentErrorSchema.optional(),
  })
  .refine((s) => (s.outcome === 'responded') === (s.response !== undefined), {
    error: 'response is present exactly when the outcome is responded',
    path: ['response'],
  });
export type InteractionSettlement = z.infer<typeof interactionSettlementSchema>;

function idSchema(prefix: string) {
  return z.string().regex(new RegExp(`^${prefix}_[A-Za-z0-9_-]{1,120}$`));
}
export const sessionIdSchema = idSchema('ses');
export const turnIdSchema = idSchema('trn');
export const runIdSchema = idSchema('run');
export const interactionIdSchema = idSchema('int');

export const agentInteractionSchema = z
  .strictObject({
    interactionId: interactionIdSchema,
    sessionId: sessionIdSchema,
    turnId: turnIdSchema,
    runId: runIdSchema,
    status: interactionStatusSchema,
    request: interactionRequestSchema,
    requestedAt: timestampSchema,
    settlement: interactionSettlementSchema.optional(),
    expiresAt: timestampSchema.optional(),
  })
  .refine((i) => (i.status === 'settled') === (i.settlement !== undefined), {
    error: 'settlement is present exactly when the status is settled',
    path: ['settlement'],
  })
  .refine(
    (i) => i.settlement?.response === undefined || i.settlement.response.kind === i.request.kind,
    {
      error: 'the response kind must equal the request kind',
      path: ['settlement', 'response', 'kind'],
    },
  );
export type AgentInteraction = z.infer<typeof agentInteractionSchema>;
