import type {
  ContextItem,
  AgentInteraction,
  HistoryPage,
  JsonObject,
  InteractionResponse,
  RevertResult,
  RunSummary,
  SessionState,
  TurnInput,
} from '@relvo-labs/agent-provider';
import type { EventSubscription, SubscribeOptions } from '../subscription.js';
import type { HistoryOptions } from './provider-history.js';
import type { RevertOptions } from './revert.js';
import type { TurnResult } from './turn-result.js';

/* What a host holds of a runtime session (public types of the package entry). */

export interface SubmitTurnOptions {
  /** A plain string is sent as one text part. */
  readonly input: string | TurnInput;
  /** Runs this turn on that profile; default: the session's, else the config's default. */
  readonly profile?: string;
  /**
   * A JSON Schema the run's final message must satisfy (the provider must declare
   * `run.structuredOutput`): the value arrives as the provider's `run.extension`.
   */
  readonly outputSchema?: JsonObject;
  /**
   * This turn's model, reasoning effort and reasoning summary (the provider must declare
   * `run.options.*`); later turns get the profile's `run` defaults, else the provider's.
   */
  readonly model?: string;
  readonly effort?: string;
  readonly summary?: RunSummary;
}

export interface TurnHandle {
  readonly turnId: string;
  readonly runId: string;
  readonly profile: string;
  readonly providerId: string;
  /** Settles once the run finished and its events are durable; never rejects. */
  readonly done: Promise<TurnResult>;
}

export interface RuntimeSession {
  readonly id: string;
  readonly state: SessionState;
  readonly defaultProfile: string;
  /** The run in flight, if any (at most one per session). */
  readonly activeRunId: string | undefined;
  submitTurn(options: SubmitTurnOptions): Promise<TurnHandle>;
  /** Interactions not yet settled, in the order they were raised. */
  pendingInteractions(): AgentInteraction[];
  /** Validated against the request before the provider sees it; durable before it resolves. */
  respond(interactionId: string, response: InteractionResponse): Promise<void>;
  /**
   * Adds input to the active run (the provider must declare `run.steer`). Resolves once the
   * provider accepted it; a refusal is typed; an unknown outcome is never retried for you.
   */
  steer(input: string | TurnInput): Promise<void>;
  /**
   * Adds text the profile's model (default: the session's) sees from its next request on, with
   * or without a run (the provider must declare `run.injectContext`); recorded before it is sent.
   */
  injectContext(
    items: readonly ContextItem[],
    options?: { readonly profile?: string },
  ): Promise<void>;
  /**
   * Takes the last `turns` turns of a profile's provider session back (the provider must declare
   * `session.revert`): recorded in the log before the provider hears of it, refused while a run is
   * active. What happens to the workspace's files is the result's `files`.
   */
  revert(options: RevertOptions): Promise<RevertResult>;
  /**
   * One page of a profile's provider session's own history, newest first, in the shapes of live
   * turns (the provider must declare `session.history`): the past of a thread the log may not
   * hold. A read, recorded nowhere; pass the page's `nextCursor` for the page before.
   */
  history(options?: HistoryOptions): Promise<HistoryPage>;
  /** Interrupts the active run. */
  interrupt(reason?: string): Promise<void>;
  /** Disposes every provider session of this session; retryable after a failed dispose. */
  close(): Promise<void>;
  subscribe(options?: SubscribeOptions): EventSubscription;
}
