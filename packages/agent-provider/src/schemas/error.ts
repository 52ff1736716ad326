import { z } from 'zod';
import { jsonObjectSchema } from './json.js';

/** The closed set of 23 error codes (docs/spi.md §14). Adding one needs a new wire minor. */
export const AGENT_ERROR_CODES = [
  // Caller
  'invalid_request',
  'unknown_session',
  'unknown_turn',
  'unknown_run',
  'unknown_interaction',
  'illegal_state_transition',
  'command_id_conflict',
  // Lifecycle
  'session_closed',
  'run_already_terminal',
  'interaction_already_settled',
  'interaction_expired',
  // Capability
  'capability_unsupported',
  // Workspace
  'workspace_unavailable',
  'workspace_ownership_violation',
  // Provider
  'provider_not_registered',
  'provider_rejected',
  'provider_unavailable',
  'provider_contract_violation',
  // Store
  'store_conflict',
  'store_unavailable',
  // Subscription
  'subscriber_overflow',
  'cursor_out_of_range',
  // Fallback
  'internal',
] as const;

/** Exactly these codes are retryable; every other code is not. */
export const RETRYABLE_AGENT_ERROR_CODES = [
  'provider_unavailable',
  'store_unavailable',
  'workspace_unavailable',
] as const satisfies readonly (typeof AGENT_ERROR_CODES)[number][];

export const agentErrorCodeSchema = z.enum(AGENT_ERROR_CODES);
export type AgentErrorCode = z.infer<typeof agentErrorCodeSchema>;

export const AGENT_ERROR_MESSAGE_MAX = 2000;
export const PROVIDER_CODE_MAX = 200;

export const agentErrorSchema = z.strictObject({
  code: agentErrorCodeSchema,
  message: z.string().min(1).max(AGENT_ERROR_MESSAGE_MAX),
  retryable: z.boolean().default(false),
  details: jsonObjectSchema.optional(),
  providerCode: z.string().max(PROVIDER_CODE_MAX).optional(),
});
export type AgentError = z.infer<typeof agentErrorSchema>;
export type AgentErrorInput = z.input<typeof agentErrorSchema>;
