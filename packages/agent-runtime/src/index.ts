// Public entry of @relvo-labs/agent-runtime (wire 0.8). Layer 3 of ADR-0001: it depends on the
// SPI package only and never imports a concrete provider.
export { createAgentRuntime } from './runtime.js';
export type {
  AgentRuntime,
  AgentRuntimeOptions,
  OpenSessionOptions,
  ReadEventsOptions,
} from './runtime-api.js';
export type { RuntimeSession, SubmitTurnOptions, TurnHandle } from './session/session.js';
export type { RevertOptions } from './session/revert.js';
export type { HistoryOptions } from './session/provider-history.js';
export type { TurnOutcome, TurnResult } from './session/turn-result.js';
export type {
  HostToolCallContext,
  HostToolFunction,
  HostToolFunctions,
} from './session/host-functions.js';
export type { ProviderFactory } from './registry.js';
export {
  loadRuntimeConfig,
  parseRuntimeConfig,
  runtimeConfigSchema,
  type RuntimeConfig,
  type RuntimeConfigInput,
  type RuntimeProfile,
} from './config.js';
export {
  eventEnvelopeSchema,
  parseEventEnvelope,
  type EventEnvelope,
  type EventPayload,
  type EventType,
  type PayloadOf,
} from './envelope.js';
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
  postgresEventStoreOptionsSchema,
  subscribeOptionsSchema,
} from './options.js';
export type { RuntimeClock } from './clock.js';
export type { IdFactory, IdPrefix } from './ids.js';
export type { EventStore, ReadOptions, StoredSession } from './store/types.js';
export { createMemoryEventStore } from './store/memory.js';
export { openSqliteEventStore, type SqliteEventStoreOptions } from './store/sqlite.js';
export {
  openPostgresEventStore,
  type HostPgPool,
  type PostgresEventStoreOptions,
} from './store/postgres.js';
export type { EventSubscription, SubscribeOptions } from './subscription.js';
export {
  warmPoolErrorSchema,
  warmPoolStateSchema,
  warmProfileStateSchema,
  type WarmPoolError,
  type WarmPoolListener,
  type WarmPoolState,
  type WarmProfileState,
} from './session/warm-state.js';
export type {
  RuntimeTelemetryOptions,
  TelemetryMeterProvider,
  TelemetryTracerProvider,
} from './telemetry/setup.js';
