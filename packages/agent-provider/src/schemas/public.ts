import { providerDescriptorSchema } from './descriptor.js';
import { agentErrorSchema } from './error.js';
import { providerEventInputSchema, providerEventPayloadSchema } from './events.js';
import {
  interactionRequestSchema,
  interactionResponseSchema,
  questionAnswerSchema,
  questionItemSchema,
  questionSetRequestSchema,
  questionSetResponseSchema,
} from './interaction.js';
import { contextItemsSchema } from './context.js';
import { hostToolsSchema } from './host-tools.js';
import { jsonObjectSchema, jsonValueSchema } from './json.js';
import { providerRecoveryRecordSchema } from './recovery.js';
import {
  historyPageSchema,
  historyRequestSchema,
  revertRequestSchema,
  revertResultSchema,
} from './session-ops.js';
import {
  agentInteractionSchema,
  interactionSettlementSchema,
  providerRunTerminationSchema,
  runTerminationSchema,
} from './termination.js';
import { runOptionsSchema, turnInputSchema } from './turn.js';

/** Every schema published as a JSON Schema file, keyed by its file name (`schemaId(name)`). */
export const PUBLIC_SCHEMAS = {
  'agent-error': agentErrorSchema,
  'agent-interaction': agentInteractionSchema,
  'context-items': contextItemsSchema,
  'host-tools': hostToolsSchema,
  'history-page': historyPageSchema,
  'history-request': historyRequestSchema,
  'interaction-request': interactionRequestSchema,
  'interaction-response': interactionResponseSchema,
  'interaction-settlement': interactionSettlementSchema,
  'json-object': jsonObjectSchema,
  'json-value': jsonValueSchema,
  'provider-descriptor': providerDescriptorSchema,
  'provider-event-input': providerEventInputSchema,
  'provider-event-payload': providerEventPayloadSchema,
  'provider-recovery-record': providerRecoveryRecordSchema,
  'provider-run-termination': providerRunTerminationSchema,
  'question-answer': questionAnswerSchema,
  'question-item': questionItemSchema,
  'question-set-request': questionSetRequestSchema,
  'question-set-response': questionSetResponseSchema,
  'revert-request': revertRequestSchema,
  'revert-result': revertResultSchema,
  'run-options': runOptionsSchema,
  'run-termination': runTerminationSchema,
  'turn-input': turnInputSchema,
} as const;

export type PublicSchemaName = keyof typeof PUBLIC_SCHEMAS;
