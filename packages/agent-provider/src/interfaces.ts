import type { z } from 'zod';
import type { JsonObject } from './json.js';
import type { ContextItem } from './schemas/context.js';
import type { ProviderDescriptor, WorkspaceOwnership } from './schemas/descriptor.js';
import type { ProviderEventInput } from './schemas/events.js';
import type { HostToolDefinition } from './schemas/host-tools.js';
import type { InteractionResponse } from './schemas/interaction.js';
import type { ProviderRecoveryRecord } from './schemas/recovery.js';
import type {
  HistoryPage,
  HistoryRequest,
  RevertRequest,
  RevertResult,
} from './schemas/session-ops.js';
import type { ProviderRunTermination } from './schemas/termination.js';
import type { TurnInput, RunSummary } from './schemas/turn.js';

/*
 * In-process handles (docs/spi.md §3, §5–§8, §10). Never serialised; everything they accept
 * or produce is JSON.
 */

/** Synchronous and never throws; the runtime adds identity and ordering. */
export interface ProviderEventSink {
  emit(input: ProviderEventInput): void;
}

export interface ProviderWorkspaceView {
  /** Absolute and already realpath-resolved. */
  root: string;
  /** `borrowed`: the caller owns it; never scratch space. */
  ownership: WorkspaceOwnership;
}

export interface ProviderSessionInit {
  /** Provider-defined; already captured. Adapters parse strictly (`invalid_request` on unknown keys). */
  options: JsonObject;
  workspace: ProviderWorkspaceView;
  /** Session-scoped: only `diagnostic` payloads belong here. */
  sink: ProviderEventSink;
  /**
   * Host tools the model may call (descriptor `interaction.toolCall`; docs/spi.md §11.4): each
   * call is a `tool_call` interaction of the run that made it. Absent or empty: none.
   */
  tools?: readonly HostToolDefinition[];
}

export interface ProviderRunRequest {
  input: TurnInput;
  /** Scoped to this run. */
  sink: ProviderEventSink;
  /** Opaque correlation token and idempotency key for `startRun` retries. */
  runRef: string;
  /**
   * A JSON Schema the run's final message must satisfy (descriptor `run.structuredOutput`;
   * docs/spi.md §7): the validated value is delivered as a `run.extension` of the provider's
   * namespace, and a final message that does not validate fails the run.
   */
  outputSchema?: JsonObject;
  /**
   * The model, reasoning effort and reasoning summary of this run only (descriptor
   * `run.options.*`; docs/spi.md §7): a later run without them gets the session's defaults.
   */
  model?: string;
  effort?: string;
  summary?: RunSummary;
}

export interface ProviderRun {
  /** Settles exactly once. */
  readonly completion: Promise<ProviderRunTermination>;
  /** Idempotent; a no-op once the run has terminated. */
  interrupt(reason?: string): Promise<void>;
  /**
   * Adds input to the run while it is active (descriptor `run.steer`; docs/spi.md §8).
   * Resolves once the provider accepted it; a `ProviderRejection` is definite: nothing was
   * added (unsupported, the run not yet or no longer active, input refused).
   */
  steer?(input: TurnInput): Promise<void>;
}

export interface ProviderSession {
  startRun(request: ProviderRunRequest): Promise<ProviderRun>;
  respondToInteraction(providerRef: string, response: InteractionResponse): Promise<void>;
  /**
   * Adds text the model sees from its next request on, without a run (descriptor
   * `run.injectContext`; docs/spi.md §6). Resolves once the provider took it.
   */
  injectContext?(items: readonly ContextItem[]): Promise<void>;
  /** Idempotent, including after a rejected attempt. */
  dispose(): Promise<void>;
  exportRecoveryRecord?(): Promise<ProviderRecoveryRecord>;
  /**
   * Takes the session's last `turns` turns out of its history (descriptor `session.revert`;
   * docs/spi.md §6): the next run's model does not see them. Refused while a run is active
   * and beyond the session's history; a `ProviderRejection` is definite: nothing was taken back.
   */
  revert?(request: RevertRequest): Promise<RevertResult>;
  /**
   * One page of the session's past turns, newest first (descriptor `session.history`;
   * docs/spi.md §6), in the shapes of live turns: memory is bounded by the page, never by the
   * whole history. Pass the page's `nextCursor` for the page before.
   */
  history?(request: HistoryRequest): Promise<HistoryPage>;
}

export interface AgentProvider {
  /** Called once, at registration; the parsed, frozen snapshot is all the runtime uses. */
  describe(): ProviderDescriptor;
  createSession(init: ProviderSessionInit): Promise<ProviderSession>;
  resumeSession?(
    record: ProviderRecoveryRecord,
    init: ProviderSessionInit,
  ): Promise<ProviderSession>;
  /**
   * A new, independent session whose history is the record's up to its last turn (descriptor
   * `recovery.forksFromRecoveryRecord`; docs/spi.md §10): the record's own session is unchanged.
   */
  forkSession?(record: ProviderRecoveryRecord, init: ProviderSessionInit): Promise<ProviderSession>;
}

/**
 * The zod schemas of a provider's options, which a provider factory may carry as its
 * `optionSchemas` property: a runtime then refuses a profile whose `providerOptions` or
 * `sessionOptions` do not parse when it loads its config, not at the profile's first turn.
 */
export interface ProviderOptionSchemas {
  /** What the factory takes. */
  readonly providerOptions?: z.ZodType;
  /** What `createSession` takes as `ProviderSessionInit.options`. */
  readonly sessionOptions?: z.ZodType;
}
