// Public entry of @relvo-labs/agent-runtime (wire 0.5). Layer 3 of ADR-0001: it depends on the
// SPI package only and never imports a concrete provider.
export { createAgentRuntime } from './runtime.js';
export type {
  AgentRuntime,
  AgentRuntimeOptions,
  OpenSessionOptions,
  ReadEventsOptions,
} from './runtime.js';
export type { RuntimeSession, SubmitTurnOptions, TurnHandle } from './session/session.js';
export { STAGED_EMISSIONS_LIMIT } from './session/run.js';
export type { TurnOutcome, TurnResult } from './session/turn-result.js';
export type { ProviderFactory } from './registry.js';
export {
  loadRuntimeConfig,
  parseRuntimeConfig,
  profileNameSchema,
  providerIdSchema,
  runtimeConfigSchema,
  runtimeProfileSchema,
  type RuntimeConfig,
  type RuntimeConfigInput,
  type RuntimeProfile,
} from './config.js';
export * from './envelope.js';
export {
  isConfigRefusal,
  isRetryableReason,
  isRuntimeError,
  RUNTIME_CONFIG_REFUSALS,
  RUNTIME_ERROR_REASONS,
  RuntimeError,
  type RuntimeErrorOptions,
  type RuntimeErrorReason,
} from './errors.js';
// the one way to turn anything thrown (a RuntimeError, a ProviderRejection, anything) into a DTO
export { toAgentError } from '@relvo-labs/agent-provider';
export {
  agentRuntimeOptionsSchema,
  sqliteEventStoreOptionsSchema,
  subscribeOptionsSchema,
} from './options.js';
export { systemClock, type RuntimeClock } from './clock.js';
export { ID_PREFIXES, randomId, type IdFactory, type IdPrefix } from './ids.js';
export type { EventStore, ReadOptions, StoredSession } from './store/types.js';
export { createMemoryEventStore } from './store/memory.js';
export { openSqliteEventStore, type SqliteEventStoreOptions } from './store/sqlite.js';
export {
  LATEST_SCHEMA_VERSION,
  MIGRATIONS,
  SQLITE_APPLICATION_ID,
  type Migration,
} from './store/migrations.js';
export type { EventSubscription, SubscribeOptions } from './subscription.js';
export { PROCESS_ENDED_ERROR } from './recovery.js';
