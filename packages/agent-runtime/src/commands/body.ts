/**
 * What a routed command carries and how it settles (ADR-0052), as zod schemas: the owner checks
 * a body before it carries it out, the caller checks a settlement before it believes it. Both
 * were read back from a store another process writes, so neither is trusted as typed.
 */
import {
  agentErrorSchema,
  interactionResponseSchema,
  jsonObjectSchema,
  RUN_SUMMARIES,
  REVERT_MAX_TURNS,
  turnInputSchema,
  type AgentError,
  type JsonObject,
} from '@relvo-labs/agent-provider';
import { z } from 'zod';
import {
  isRuntimeError,
  RUNTIME_ERROR_REASONS,
  RuntimeError,
  type RuntimeErrorReason,
} from '../errors.js';

const inputSchema = z.union([z.string(), turnInputSchema]);

const submitOptionsSchema = z.strictObject({
  input: inputSchema,
  profile: z.string().max(256).optional(),
  outputSchema: jsonObjectSchema.optional(),
  model: z.string().max(256).optional(),
  effort: z.string().max(64).optional(),
  summary: z.enum(RUN_SUMMARIES).optional(),
});

export const commandBodySchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('respond'),
    interactionId: z.string().min(1).max(256),
    response: interactionResponseSchema,
  }),
  z.strictObject({ kind: z.literal('interrupt'), reason: z.string().max(4096).optional() }),
  z.strictObject({ kind: z.literal('steer'), input: inputSchema }),
  z.strictObject({ kind: z.literal('submit_turn'), options: submitOptionsSchema }),
  z.strictObject({ kind: z.literal('close') }),
  z.strictObject({
    kind: z.literal('revert'),
    turns: z.number().int().min(1).max(REVERT_MAX_TURNS),
    profile: z.string().max(256).optional(),
  }),
]);
export type CommandBody = z.infer<typeof commandBodySchema>;
export type CommandKind = CommandBody['kind'];

export const routedTurnSchema = z.strictObject({
  turnId: z.string().min(1).max(256),
  runId: z.string().min(1).max(256),
  profile: z.string().min(1).max(256),
  providerId: z.string().min(1).max(256),
});

export const commandSettlementSchema = z.discriminatedUnion('outcome', [
  z.strictObject({ outcome: z.literal('done'), turn: routedTurnSchema.optional() }),
  z.strictObject({ outcome: z.literal('refused'), error: agentErrorSchema }),
  z.strictObject({ outcome: z.literal('withdrawn') }),
]);
export type CommandSettlement = z.infer<typeof commandSettlementSchema>;

/** A checked body or settlement as the JSON a store keeps (absent optionals dropped). */
export function asJson(value: CommandBody | CommandSettlement): JsonObject {
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}

/** The settlement of a command that failed, carrying the typed refusal as a DTO. */
export function refusedWith(error: unknown): CommandSettlement {
  return { outcome: 'refused', error: refusalDto(error) };
}

function refusalDto(error: unknown): AgentError {
  if (isRuntimeError(error)) return error.toJSON();
  // anything else becomes a bounded internal refusal: no foreign prose crosses processes
  return new RuntimeError(
    'internal',
    'provider_unknown_outcome',
    'the command failed in its owner',
  ).toJSON();
}

const KNOWN_REASONS = new Set<string>(RUNTIME_ERROR_REASONS);

/** The owner's refusal, thrown again here as the runtime error it was there. */
export function refusalOf(error: AgentError): RuntimeError {
  const reason = error.details?.['reason'];
  const known: RuntimeErrorReason =
    typeof reason === 'string' && KNOWN_REASONS.has(reason)
      ? (reason as RuntimeErrorReason)
      : 'provider_unknown_outcome';
  const details: JsonObject = { ...(error.details ?? {}), routed: true };
  delete details['reason'];
  return new RuntimeError(error.code, known, error.message, {
    details,
    ...(error.providerCode === undefined ? {} : { providerCode: error.providerCode }),
    retryable: error.retryable,
  });
}
