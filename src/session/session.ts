/**
 * One provider session = one app-server connection and one ephemeral thread. This is the SPI
 * facade the host sees; it assembles the session's parts and delegates: admission
 * (`admission.ts`), inbound routing (`router.ts`), the interaction bridges (`interactions.ts`)
 * over one set of facts (`state.ts`). It owns disposal.
 */
import type { ReleaseCapabilities } from '../capabilities/gate.js';
import type { CodexEventsOptions } from '../events/schemas.js';
import type {
  ContextItem,
  InteractionResponse,
  ProviderRecoveryRecord,
  ProviderEventSink,
  ProviderRun,
  ProviderRunRequest,
  ProviderSession,
  HistoryPage,
  HistoryRequest,
  RevertRequest,
  RevertResult,
  RunSummary,
} from '@relvo-labs/agent-provider';
import { CODEX_DISPOSED_REASON } from '../constants.js';
import { CODEX_CLIENT_METHOD } from '../protocol/wire-names.js';
import { configReadResultSchema } from '../protocol/wire.js';
import type { CodexConnection } from '../rpc/connection.js';
import { causeTokenOf } from '../shared/cause-token.js';
import { codexRejection } from '../shared/codex-error.js';
import { RetryableAttempt } from '../shared/retryable-attempt.js';
import type { CodexResourceUsage } from '../transport/types.js';
import type { UsageTotals } from '../protocol/inbound.js';
import { TurnAdmission } from './admission.js';
import { injectContext, type InjectContextDeps } from './inject-context.js';
import {
  openSessionInteractions,
  type SessionBridges,
  type SessionInteractions,
} from './interactions.js';
import { resolveInteractionOwner } from './owner-check.js';
import {
  summaryOf,
  TurnSettings,
  type ThreadDefaults,
  type TurnSettingsParams,
} from './run-options.js';
import { buildRecoveryRecord } from './recovery.js';
import { readHistory } from './history.js';
import { LoopHold } from './loop-hold.js';
import { revertInProgress, ThreadReverter } from './revert.js';
import { InboundRouter, type RateLimitsUpdateHandler } from './router.js';
import { SessionState } from './state.js';
import type { StallPolicy } from './stall.js';

export interface CodexSessionParams {
  readonly threadId: string;
  /** The token total the thread starts with (a fork: its source's at export). */
  readonly threadTotal?: UsageTotals;
  /** The model and effort the thread started with: what a per-run option is undone to. */
  readonly threadDefaults?: ThreadDefaults;
  /** Per-run options a resumed thread still holds (its record says so): undone on the next run. */
  readonly heldOptions?: { readonly [K in keyof TurnSettingsParams]?: string | undefined };
  /** The handshaken connection; the session takes its inbound traffic over. */
  readonly connection: CodexConnection;
  readonly sink: ProviderEventSink;
  /** What the connected release carries: steer and outputSchema are refused without it (ADR-0042). */
  readonly capabilities?: ReleaseCapabilities;
  /** The stall watchdog's policy (ADR-0008); undefined turns it off. */
  readonly stall?: StallPolicy | undefined;
  /** The request deadline, also the bound on holding an early interrupt (admission.ts). */
  readonly requestTimeoutMs?: number;
  /** Which server requests become neutral interactions. */
  readonly bridges: SessionBridges;
  /** The realpath-resolved workspace root: paths in tool activity and patches are made relative to it. */
  readonly workspaceRoot?: string;
  /** Publish tool items as run.tool_activity (ADR-0014). */
  readonly toolActivity?: boolean;
  /** Accept `file_ref` parts, resolved inside the workspace (ADR-0017). */
  readonly fileReferences?: boolean;
  /** Plan, diff and reasoning-summary events (ADR-0039). */
  readonly events?: CodexEventsOptions;
  /** The host's `onRateLimits`, given each account-wide limits update (src/rate-limits.ts). */
  readonly onRateLimits?: RateLimitsUpdateHandler;
  /** A persisted thread (ADR-0016): the session can export a recovery record. */
  readonly recovery?: {
    readonly codexHomeDigest: string;
    readonly workspaceDigest: string;
    /** After a resume codex replays the usage of this (earlier) turn: never a run's. */
    readonly replayedTurnId?: string;
  };
}

export class CodexSession implements ProviderSession {
  readonly #state: SessionState;
  readonly #connection: CodexConnection;
  readonly #interactions: SessionInteractions | undefined;
  readonly #admission: TurnAdmission;
  readonly #inject: InjectContextDeps;
  /** Teardown is shared while in flight and retryable after a failure. */
  readonly #disposal = new RetryableAttempt({ once: true });
  /** Present only with `persistence: 'thread'` (`'exportRecoveryRecord' in session` is the test). */
  declare exportRecoveryRecord?: () => Promise<ProviderRecoveryRecord>;
  /** Present only with `persistence: 'thread'`: codex reverts and lists persisted threads only. */
  declare revert?: (request: RevertRequest) => Promise<RevertResult>;
  declare history?: (request: HistoryRequest) => Promise<HistoryPage>;
  #reverter: ThreadReverter | undefined;

  constructor(params: CodexSessionParams) {
    const recovery = params.recovery;
    const hold = new LoopHold((on) => {
      params.connection.keepAlive(on);
    });
    const state = new SessionState({
      threadId: params.threadId,
      sink: params.sink,
      keepAlive: (on) => {
        hold.run(on);
      },
      replayedTurnId: recovery?.replayedTurnId,
      threadTotal: params.threadTotal,
    });
    const workspaceRoot = params.workspaceRoot ?? '';
    const interactions = openSessionInteractions({
      bridges: params.bridges,
      ...(params.bridges.fileChanges === true
        ? {
            fileChanges: {
              workspaceRoot,
              outsideChanges: params.bridges.outsideWorkspaceChanges ?? 'decline',
              lookup: (turnId: string, itemId: string) => state.active?.fileChange(turnId, itemId),
            },
          }
        : {}),
      workspaceRoot,
      mcpCallInFlight: (turnId: string, server: string) => state.active?.mcpCall(turnId, server),
      threadId: params.threadId,
      resolveOwner: (correlation) => resolveInteractionOwner(state.snapshot(), correlation),
      emit: (event) => {
        state.emit(event);
      },
    });
    this.#state = state;
    this.#connection = params.connection;
    this.#interactions = interactions;
    this.#inject = { state, connection: params.connection, capabilities: params.capabilities };
    const readSummary = async (): Promise<RunSummary> => {
      const read = await params.connection.request(CODEX_CLIENT_METHOD.configRead, {
        cwd: workspaceRoot,
      });
      const parsed = configReadResultSchema.safeParse(read);
      if (!parsed.success) throw new TypeError('config/read answered without a config');
      return summaryOf(parsed.data.config.model_reasoning_summary);
    };
    const settings = new TurnSettings(params.threadDefaults ?? {}, readSummary, params.heldOptions);
    this.#admission = new TurnAdmission({
      state,
      connection: params.connection,
      interactions,
      settings,
      stall: params.stall,
      ...(params.capabilities !== undefined ? { capabilities: params.capabilities } : {}),
      ...(params.requestTimeoutMs !== undefined
        ? { requestTimeoutMs: params.requestTimeoutMs }
        : {}),
      runFeatures: {
        workspaceRoot,
        toolActivity: params.toolActivity === true,
        fileChanges: params.bridges.fileChanges === true,
        fileReferences: params.fileReferences === true,
        ...(params.events !== undefined ? { events: params.events } : {}),
      },
    });
    if (recovery !== undefined) {
      this.exportRecoveryRecord = () =>
        Promise.resolve(
          buildRecoveryRecord({
            threadId: state.threadId,
            codexHomeDigest: recovery.codexHomeDigest,
            workspaceDigest: recovery.workspaceDigest,
            lastTurnId: state.lastTurnId,
            total: state.threadTotal,
            settings: settings.snapshot(),
          }),
        );
      const reverter = new ThreadReverter({
        state,
        request: (method, body) => params.connection.request(method, body),
        capabilities: params.capabilities,
        during: (work) => hold.during(work),
      });
      this.#reverter = reverter;
      this.revert = (request) => reverter.revert(request);
      this.history = (request) =>
        readHistory(
          {
            state,
            request: (method, body) => params.connection.request(method, body),
            capabilities: params.capabilities,
            during: (work) => hold.during(work),
          },
          request,
        );
    }
    // an idle session does not hold the host's event loop open (ADR-0009)
    params.connection.keepAlive(false);
    const router = new InboundRouter({
      state,
      interactions,
      ...(params.onRateLimits !== undefined ? { onRateLimits: params.onRateLimits } : {}),
    });
    // a resumed thread's total so far, when codex replayed it during the handshake (ADR-0012)
    const before = params.connection.usageBeforeSession;
    if (before !== undefined) router.usage(before);
    params.connection.deliverTo(router);
  }

  startRun(request: ProviderRunRequest): Promise<ProviderRun> {
    if (this.#reverter?.busy === true) return Promise.reject(revertInProgress());
    try {
      return this.#admission.admit(request);
    } catch {
      // a malformed request throws while being read, before any state changed: nothing sent
      return Promise.reject(
        codexRejection('invalid_request', 'the codex run request is malformed'),
      );
    }
  }

  /** `thread/inject_items` for the host's text items (src/session/inject-context.ts). */
  injectContext(items: readonly ContextItem[]): Promise<void> {
    return injectContext(this.#inject, items);
  }

  respondToInteraction(providerRef: string, response: InteractionResponse): Promise<void> {
    const interactions = this.#interactions;
    if (interactions === undefined) {
      return Promise.reject(
        codexRejection('unknown_interaction', 'this codex session raises no interactions'),
      );
    }
    return interactions.respond(providerRef, response);
  }

  dispose(): Promise<void> {
    return this.#disposal.run(() => {
      this.#state.beginDisposal();
      this.#interactions?.retireAll('dispose');
      return this.#tearDown();
    });
  }

  /**
   * RSS and CPU of the app-server's process group (leader plus recorded members), when the
   * transport can measure it; undefined for a host transport that cannot.
   */
  async resourceUsage(): Promise<CodexResourceUsage | undefined> {
    return this.#connection.resourceUsage();
  }

  async #tearDown(): Promise<void> {
    // yield first so a synchronous throw inside close() cannot cache a rejected promise
    await Promise.resolve();
    try {
      await this.#connection.close();
    } catch (error) {
      const token = causeTokenOf(error);
      throw codexRejection(
        'provider_rejected',
        `codex app-server teardown failed (${token})`,
        { details: { cause: token } },
        { cause: error },
      );
    }
    this.#state.markDisposed();
    // settling stops the run's watchdog
    this.#state.active?.settle({ outcome: 'interrupted', reason: CODEX_DISPOSED_REASON });
  }
}
