/**
 * What a host holds of a runtime: the options of `createAgentRuntime` and the `AgentRuntime`
 * it resolves (public types of the package entry). Kept apart from `runtime.ts`, which builds
 * the object, so the contract reads without the wiring, as `session/api.ts` does for a session.
 */
import type { JsonObject } from '@relvo-labs/agent-provider';
import type { RuntimeClock } from './clock.js';
import type { RuntimeConfig, RuntimeConfigInput } from './config.js';
import type { EventEnvelope } from './envelope.js';
import type { IdFactory } from './ids.js';
import type { ProviderFactory } from './registry.js';
import type { AgentInteraction, InteractionResponse, TurnInput } from '@relvo-labs/agent-provider';
import type { RevertOptions } from './session/revert.js';
import type { RuntimeSession, SubmitTurnOptions } from './session/session.js';
import type { HostToolFunctions } from './session/host-functions.js';
import type { EventStore, StoredSession } from './store/types.js';
import type { RuntimeTelemetryOptions } from './telemetry/setup.js';
import type { EventSubscription, SubscribeOptions } from './subscription.js';
import type { WorkspaceInput } from './workspace.js';
import type { WarmPoolListener, WarmPoolState } from './session/warm-state.js';

export interface AgentRuntimeOptions {
  /** Provider factories by id, e.g. `{ codex: createCodexProvider, scripted: () => provider }`. */
  readonly providers: Readonly<Record<string, ProviderFactory>>;
  /** Host config: an object (parsed here) or the result of `loadRuntimeConfig(path)`. */
  readonly config: RuntimeConfigInput | RuntimeConfig;
  /** Default: an in-memory store. Use `openSqliteEventStore({ path })` for a durable log. */
  readonly store?: EventStore;
  readonly clock?: RuntimeClock;
  /** For tests: deterministic ids. */
  readonly ids?: IdFactory;
  /** How long `close` waits for a run the provider has not settled after dispose. Default 10 s. */
  readonly closeGraceMs?: number;
  /**
   * How long a session-addressed command waits for another runtime to settle it before it is
   * withdrawn and refused with `session_unowned`. Default 30 000.
   */
  readonly commandTimeoutMs?: number;
  /**
   * Host functions by tool name: a profile's `tools` entry of that name is answered by calling
   * it (docs/host-guide.md, host tools); a tool without one waits for the host's answer.
   */
  readonly toolFunctions?: HostToolFunctions;
  /**
   * OpenTelemetry spans and metrics (docs/observability.md; needs `@opentelemetry/api`, an
   * optional peer). Absent: nothing is loaded or emitted. `{}`: the globally registered
   * providers. Prompt text and paths only under `recordContent: true`.
   */
  readonly telemetry?: RuntimeTelemetryOptions;
}

export type SessionOwnership = 'this_runtime' | 'elsewhere';

/** What a session-addressed `submitTurn` resolves with, wherever the turn runs. */
export interface RoutedTurn {
  readonly turnId: string;
  readonly runId: string;
  readonly profile: string;
  readonly providerId: string;
}

export interface OpenSessionOptions {
  /** A directory; realpath-resolved before a provider sees it. */
  readonly workspace: WorkspaceInput;
  /** The session's default profile; default: the config's `defaultProfile`. */
  readonly profile?: string;
  readonly metadata?: JsonObject;
}

export interface ReadEventsOptions {
  readonly fromSequence?: number;
  readonly limit?: number;
}

export interface AgentRuntime {
  readonly config: RuntimeConfig;
  readonly store: EventStore;
  /** Sessions of an earlier process that were found open and recorded as failed at start. */
  readonly recoveredSessionIds: readonly string[];
  /** Sessions of an earlier process found open with a recovery record: `resumeSession` them. */
  readonly resumableSessionIds: readonly string[];
  openSession(options: OpenSessionOptions): Promise<RuntimeSession>;
  /**
   * Continues a session a process that died left open, from its recorded provider session
   * (codex: `thread/resume`): the next turn carries the earlier ones. Refused, typed, when the
   * workspace, the provider or (the provider says) its home no longer match. A session this
   * runtime has open is returned as it is.
   */
  resumeSession(sessionId: string): Promise<RuntimeSession>;
  /**
   * A new session (new id, its own log) that continues from where `sessionId` is now: each
   * recorded provider session is forked (codex: `thread/fork` through its last turn), so the new
   * session's next turn carries the earlier ones; the source, open or not, is unchanged. Refused,
   * typed, while the source runs a turn, when no provider recorded it, or when a provider does
   * not declare `recovery.forksFromRecoveryRecord`.
   */
  forkSession(sessionId: string): Promise<RuntimeSession>;
  /** A session opened by this runtime and not yet closed. */
  session(sessionId: string): RuntimeSession | undefined;
  /** Every session in the store, including earlier processes'. */
  listSessions(): Promise<readonly StoredSession[]>;
  readEvents(sessionId: string, options?: ReadEventsOptions): Promise<readonly EventEnvelope[]>;
  /**
   * Who holds each session's lease now: `this_runtime`, or `elsewhere` (another process or
   * host); a session missing from the map has no live owner. Stores without leases (memory)
   * report this runtime's live sessions only.
   */
  sessionOwners(): Promise<ReadonlyMap<string, SessionOwnership>>;
  /**
   * Session-addressed commands (ADR-0052): carried out here when this runtime has the session
   * open; otherwise recorded in the store's command table and carried out by the runtime that
   * owns the session, which settles it once; this promise resolves or rejects with that
   * settlement. When no runtime owns the session and its lease has lapsed, this runtime takes it
   * over as `resumeSession` does and carries the command out itself; when the owner does not
   * settle within `commandTimeoutMs` the command is withdrawn (never carried out later) and the
   * call rejects with `session_unowned`.
   */
  respond(sessionId: string, interactionId: string, response: InteractionResponse): Promise<void>;
  interrupt(sessionId: string, reason?: string): Promise<void>;
  steer(sessionId: string, input: string | TurnInput): Promise<void>;
  /** A routed turn: follow it with `subscribe(sessionId)` (its `run.finished` names `runId`). */
  submitTurn(sessionId: string, options: SubmitTurnOptions): Promise<RoutedTurn>;
  closeSession(sessionId: string): Promise<void>;
  /**
   * Takes the session's last turns back (`RuntimeSession.revert`); the log's `session.reverted`
   * says what happened to the workspace's files.
   */
  revert(sessionId: string, options: RevertOptions): Promise<void>;
  /** Interactions pending in the session's log, wherever it is owned, oldest first. */
  pendingInteractions(sessionId: string): Promise<readonly AgentInteraction[]>;
  /**
   * The warm set of each prewarmed profile (ADR-0037) now: ready, starting, failed starts and
   * the last failure's code and reason token; `warmPoolStateSchema` is its shape.
   */
  warmPool(): WarmPoolState;
  /**
   * Calls `listener` with the whole warm-pool state after each change (a start begun or done, a
   * session taken, a failure, an idle disposal, shutdown); the result stops it. A listener that
   * throws is ignored.
   */
  watchWarmPool(listener: WarmPoolListener): () => void;
  /** Replays the stored history from `fromSequence`, then continues live. */
  subscribe(sessionId: string, options?: SubscribeOptions): EventSubscription;
  /** Refuses new work, closes every session, closes the store. Memoised; retryable. */
  shutdown(): Promise<void>;
}
