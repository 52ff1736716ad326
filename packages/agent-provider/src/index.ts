// Public entry of @relvo-labs/agent-provider (wire 0.5). Each name here is listed in the README;
// every type of the modules is public, their other values are internal.
export { WIRE_STABILITY, WIRE_VERSION } from './wire.js';
export { canonicalJson, captureJson } from './json.js';
export { jsonObjectSchema } from './schemas/json.js';
export { AGENT_ERROR_CODES, agentErrorSchema } from './schemas/error.js';
export { RUN_SUMMARIES, runOptionsSchema, turnInputSchema } from './schemas/turn.js';
export {
  approvalRequestSchema,
  interactionRequestSchema,
  interactionResponseSchema,
  questionSetRequestSchema,
} from './schemas/interaction.js';
export {
  diagnosticPayloadSchema,
  messageDeltaPayloadSchema,
  providerEventInputSchema,
  runExtensionPayloadSchema,
  toolActivityPayloadSchema,
  usagePayloadSchema,
} from './schemas/events.js';
export { providerDescriptorSchema, workspaceOwnershipSchema } from './schemas/descriptor.js';
export {
  HOST_TOOL_BOUNDS,
  hostToolDefinitionSchema,
  hostToolsSchema,
  TOOL_FAILURE_CODES,
  toolCallRequestSchema,
  toolCallResponseSchema,
  toolOutputSchema,
} from './schemas/host-tools.js';
export { CONTEXT_ITEMS_MAX, contextItemSchema, contextItemsSchema } from './schemas/context.js';
export { canDeclareHostTools, canInjectContext } from './host-capabilities.js';
export { providerRecoveryRecordSchema } from './schemas/recovery.js';
export {
  HISTORY_MAX_LIMIT,
  HISTORY_TURN_MAX_EVENTS,
  historyPageSchema,
  historyRequestSchema,
  historyTurnSchema,
  REVERT_MAX_TURNS,
  revertRequestSchema,
  revertResultSchema,
  sessionCapabilitySchema,
} from './schemas/session-ops.js';
export {
  interactionIdSchema,
  interactionSettlementSchema,
  providerRunTerminationSchema,
  runIdSchema,
  runTerminationSchema,
  sessionIdSchema,
  timestampSchema,
  turnIdSchema,
} from './schemas/termination.js';
export {
  agentError,
  AgentRuntimeError,
  certaintyOf,
  isAgentRuntimeError,
  isProviderRejection,
  ProviderRejection,
  toAgentError,
} from './errors.js';
export { classBrand, fixedField, fixField } from './brand.js';
export {
  canAcceptWorkspace,
  canAskQuestionSet,
  canForkSession,
  canReadHistory,
  canRevertSession,
  canInterruptRun,
  canSetRunOption,
  canSteerRun,
  canRaiseApproval,
  checkWireCompatibility,
  defineProviderDescriptor,
  interruptPreservesSession,
} from './descriptor.js';
export { checkResponseAgainstRequest } from './check-response.js';
export { SPI_LIMITS } from './limits.js';
export { messageDeltaEvent, soundDeltaPayload } from './message-delta.js';
export { OldestFirstMemory } from './oldest-first-memory.js';
export {
  canTransition,
  isCommandAllowed,
  isTerminal,
  nextStates,
  RUN_STATE_TABLE,
  runStateSchema,
  SESSION_STATE_TABLE,
  sessionStateSchema,
  TURN_STATE_TABLE,
  turnStateSchema,
} from './state.js';
export type { WireVersion } from './wire.js';
export type { CaptureResult, JsonObject, JsonPrimitive, JsonValue } from './json.js';

export type { AgentError, AgentErrorCode, AgentErrorInput } from './schemas/error.js';
export type {
  FileRefPart,
  RunOptions,
  RunSummary,
  TextPart,
  TurnInput,
  TurnInputPart,
} from './schemas/turn.js';
export type {
  ApprovalMode,
  ApprovalRequest,
  ApprovalResponse,
  InteractionKind,
  InteractionRequest,
  InteractionRequestInput,
  InteractionResponse,
  QuestionAnswer,
  QuestionChoice,
  QuestionItem,
  QuestionKey,
  QuestionRequest,
  QuestionResponse,
  QuestionSetRequest,
  QuestionSetResponse,
} from './schemas/interaction.js';
export type {
  ProviderEventInput,
  ProviderEventPayload,
  ProviderEventType,
} from './schemas/events.js';
export type {
  InteractionCapability,
  InterruptCapability,
  InterruptMode,
  ProviderDescriptor,
  ProviderDescriptorInput,
  RecoveryCapability,
  RunCapability,
  WorkspaceCapability,
  WorkspaceOwnership,
} from './schemas/descriptor.js';
export type { ProviderRecoveryRecord } from './schemas/recovery.js';
export type {
  HostToolDefinition,
  ToolCallRequest,
  ToolCallResponse,
  ToolFailureCode,
  ToolOutput,
} from './schemas/host-tools.js';
export type { ContextItem } from './schemas/context.js';
export type {
  HistoryPage,
  HistoryRequest,
  HistoryTurn,
  RevertRequest,
  RevertResult,
  SessionCapability,
} from './schemas/session-ops.js';
export type {
  AgentInteraction,
  InteractionSettlement,
  InteractionStatus,
  ProviderRunTermination,
  RunOutcome,
  RunTermination,
  SettlementOutcome,
  Timestamp,
} from './schemas/termination.js';
export type { PublicSchemaName } from './schemas/public.js';
export type { AgentErrorOptions, OutcomeCertainty } from './errors.js';
export type { ClassBrand } from './brand.js';
export type { SpiLimits } from './limits.js';
export type { CapabilityCheck, DefineProviderDescriptorInput } from './descriptor.js';

export type { RunState, SessionCommand, SessionState, StateTable, TurnState } from './state.js';
export type {
  AgentProvider,
  ProviderEventSink,
  ProviderOptionSchemas,
  ProviderRun,
  ProviderRunRequest,
  ProviderSession,
  ProviderSessionInit,
  ProviderWorkspaceView,
} from './interfaces.js';
