import {
  isCommandAllowed,
  type ContextItem,
  type AgentInteraction,
  type InteractionResponse,
  type HistoryPage,
  type ProviderRecoveryRecord,
  type RevertResult,
  type SessionCommand,
  type SessionState,
  type TurnInput,
  type WorkspaceOwnership,
} from '@relvo-labs/agent-provider';
import { within, type RuntimeClock } from '../clock.js';
import { rejection, RuntimeError } from '../errors.js';
import type { IdFactory } from '../ids.js';
import type { ProviderRegistry } from '../registry.js';
import type { EventSubscription, SubscribeOptions } from '../subscription.js';
import { settleAfterDispose, stopAfterFailure, type Grace } from './closing.js';
import type { SessionLog } from './log.js';
import { InteractionLifecycle } from './interactions.js';
import { ProviderSessionPool } from './pool.js';
import { readProviderHistory, type HistoryOptions } from './provider-history.js';
import { checkedRevert, revertProvider, type RevertOptions } from './revert.js';
import { RunDriver } from './run.js';
import { readTurnOptions, runOptionsFor, type TurnRunOptions } from './turn-options.js';
import { toTurnInput, turnInputs, type TurnInputs } from './turn-input.js';
import type { HostToolFunctions } from './host-functions.js';
import { injectContext } from './inject-context.js';
import type { WarmSessions } from './warm.js';
import type { RuntimeSession, SubmitTurnOptions, TurnHandle } from './api.js';

export type { RuntimeSession, SubmitTurnOptions, TurnHandle } from './api.js';

export interface SessionContext {
  readonly id: string;
  readonly log: SessionLog;
  readonly clock: RuntimeClock;
  readonly ids: IdFactory;
  readonly registry: ProviderRegistry;
  readonly defaultProfile: string;
  readonly workspace: { readonly root: string; readonly ownership: WorkspaceOwnership };
  readonly closeGraceMs: number;
  /** Strings no logged recovery record may contain. */
  readonly secrets: readonly string[];
  /** The log's record key (ADR-0050). */
  readonly recordKey?: Buffer;
  /** Continues a dead process's session: these profiles resume their recorded provider session. */
  readonly resumeFrom?: Map<string, ProviderRecoveryRecord>;
  /** A fork of another session: these profiles fork its recorded provider sessions. */
  readonly forkFrom?: Map<string, ProviderRecoveryRecord>;
  /** Provider sessions started ahead of demand (ADR-0037). */
  readonly warm?: WarmSessions;
  /** Host functions bound to host tools by name (`AgentRuntimeOptions.toolFunctions`). */
  readonly toolFunctions?: HostToolFunctions;
  subscribe(options?: SubscribeOptions): EventSubscription;
  onClosed(session: SessionImpl): void;
}

function notAllowed(state: SessionState, command: SessionCommand): RuntimeError {
  const closed = state === 'closed' || state === 'failed' || state === 'closing';
  return new RuntimeError(
    'session_closed',
    closed ? 'session_closed' : 'session_not_ready',
    `the session does not accept ${command} while ${state}`,
    { details: { state } },
  );
}

export class SessionImpl implements RuntimeSession {
  private current: SessionState = 'ready';
  private readonly pool: ProviderSessionPool;
  private readonly interactions: InteractionLifecycle;
  private run: RunDriver | undefined;
  private admitting: Promise<unknown> | undefined;

  /** While `work` is pending no other turn or revert is admitted. */
  private holding<T>(work: Promise<T>): Promise<T> {
    this.admitting = work;
    const done = (): void => {
      if (this.admitting === work) this.admitting = undefined;
    };
    work.then(done, done);
    return work;
  }
  private closingAttempt: Promise<void> | undefined;
  constructor(private readonly ctx: SessionContext) {
    const { id: sessionId, log, clock, ids } = ctx;
    const { toolFunctions } = ctx;
    this.interactions = new InteractionLifecycle({
      sessionId,
      log,
      clock,
      ids,
      ...(toolFunctions === undefined ? {} : { toolFunctions }),
    });
    this.pool = new ProviderSessionPool({
      registry: ctx.registry,
      log,
      workspace: ctx.workspace,
      secrets: ctx.secrets,
      ...(ctx.recordKey === undefined ? {} : { recordKey: ctx.recordKey }),
      ...(ctx.resumeFrom === undefined ? {} : { resumeFrom: ctx.resumeFrom }),
      ...(ctx.forkFrom === undefined ? {} : { forkFrom: ctx.forkFrom }),
      ...(ctx.warm === undefined ? {} : { warm: ctx.warm }),
      refusal: () =>
        this.ctx.log.failed ??
        (this.current === 'ready' ? undefined : notAllowed(this.current, 'submit_turn')),
    });
  }

  get id(): string {
    return this.ctx.id;
  }

  get state(): SessionState {
    return this.current;
  }

  get defaultProfile(): string {
    return this.ctx.defaultProfile;
  }

  get activeRunId(): string | undefined {
    return this.run?.runId;
  }

  private require(command: SessionCommand): void {
    if (!isCommandAllowed(this.current, command)) throw notAllowed(this.current, command);
  }

  /**
   * A log that failed for good records nothing more, so no command may reach a provider: the
   * caller learns why (`store_io`, `lease_lost`), not that the stopped run is gone (ADR-0046).
   */
  private refuseAfterFailure(): void {
    if (this.ctx.log.failed !== undefined) throw this.ctx.log.failed;
  }

  private moveTo(to: SessionState): void {
    this.ctx.log.append({ type: 'session.state_changed', from: this.current, to });
    this.current = to;
  }

  submitTurn(options: SubmitTurnOptions): Promise<TurnHandle> {
    try {
      this.require('submit_turn');
      // a log that lost envelopes records nothing more: no turn may run unrecorded
      this.refuseAfterFailure();
      if (this.run !== undefined || this.admitting !== undefined) {
        throw new RuntimeError(
          'illegal_state_transition',
          'session_busy',
          'the session already has an active run',
          { details: this.run === undefined ? {} : { activeRunId: this.run.runId } },
        );
      }
      const inputs = turnInputs(options.input);
      const runOptions = readTurnOptions(options);
      const profile = options.profile ?? this.ctx.defaultProfile;
      return this.holding(this.admit(inputs, profile, runOptions));
    } catch (error) {
      return rejection(error);
    }
  }

  private async admit(
    { input, logged }: TurnInputs,
    profile: string,
    turnOptions: TurnRunOptions,
  ): Promise<TurnHandle> {
    // provider, options and session are settled before the turn exists: a refusal is never mid-turn
    const entry = await this.pool.get(profile);
    this.require('submit_turn');
    const runOptions = runOptionsFor(
      entry.resolved.descriptor,
      entry.resolved.profile.run,
      turnOptions,
    );
    const turnId = this.ctx.ids('trn');
    const runId = this.ctx.ids('run');
    const providerId = entry.resolved.descriptor.providerId;
    const log = this.ctx.log;
    log.append({ type: 'turn.started', turnId, profile, providerId, input: logged });
    log.append({ type: 'turn.state_changed', turnId, from: 'accepted', to: 'running' });
    log.append({ type: 'run.started', turnId, attempt: 1, profile, providerId }, runId);
    const run = new RunDriver(
      {
        log,
        clock: this.ctx.clock,
        descriptor: entry.resolved.descriptor,
        providerSession: entry.session,
        profile,
        interactions: this.interactions,
        ...(entry.resolved.profile.interactionExpiry === undefined
          ? {}
          : { expiry: entry.resolved.profile.interactionExpiry }),
        onFinished: (finished, uncertainStart) => {
          if (this.run === finished) this.run = undefined;
          // an uncertain start leaves the provider session in an unknown state: use a fresh one
          if (uncertainStart) this.pool.discard(profile, entry.session);
          else void this.pool.refreshRecord(profile, entry.session);
        },
      },
      runId,
      turnId,
    );
    this.run = run;
    // the turn is durable under the lease before the provider sees it (ADR-0046)
    try {
      await log.durable();
    } catch (error) {
      run.abandon(error);
      throw error;
    }
    run.start(input, runOptions);
    return { turnId, runId, profile, providerId, done: run.done };
  }

  /**
   * Resumes (or forks) the provider sessions of `profiles` now, so that a refusal (another
   * workspace, home or provider) reaches the host before any turn; on a refusal nothing stays open.
   */
  async resumeProviders(profiles: readonly string[]): Promise<void> {
    const opened = await Promise.allSettled(profiles.map((p) => this.pool.get(p)));
    const refused = opened.find((r) => r.status === 'rejected');
    if (refused === undefined) return;
    await this.pool.disposeAll((work) => within(this.ctx.clock, this.ctx.closeGraceMs, work));
    throw refused.reason;
  }

  /**
   * Logs the provider sessions' current recovery records, durably: what a fork starts from. A
   * turn in flight is refused: its provider session's record would not match its history yet.
   */
  async recordProviders(): Promise<void> {
    if (this.run !== undefined || this.admitting !== undefined) {
      throw new RuntimeError(
        'illegal_state_transition',
        'session_busy',
        'the session has an active run',
        {
          details: this.run === undefined ? {} : { activeRunId: this.run.runId },
        },
      );
    }
    await this.pool.recordAll();
    await this.ctx.log.durable();
  }

  pendingInteractions(): AgentInteraction[] {
    return this.interactions.pending();
  }

  respond(interactionId: string, response: InteractionResponse): Promise<void> {
    try {
      this.require('respond_to_interaction');
      this.refuseAfterFailure();
    } catch (error) {
      return rejection(error);
    }
    return this.interactions.respond(interactionId, response);
  }

  interrupt(reason?: string): Promise<void> {
    try {
      this.require('interrupt_run');
      this.refuseAfterFailure();
      const run = this.run;
      if (run === undefined) {
        throw new RuntimeError('unknown_run', 'no_active_run', 'the session has no active run');
      }
      return run.interrupt(reason).then(() => {
        this.pool.retireAfterInterrupt(run.profile, run.providerSession, run.done);
      });
    } catch (error) {
      return rejection(error);
    }
  }

  steer(input: string | TurnInput): Promise<void> {
    try {
      // steering adds input: allowed where a submission is
      this.require('submit_turn');
      this.refuseAfterFailure();
      const turnInput = toTurnInput(input);
      const run = this.run;
      if (run === undefined) {
        throw new RuntimeError('unknown_run', 'no_active_run', 'the session has no active run');
      }
      return run.steer(turnInput);
    } catch (error) {
      return rejection(error);
    }
  }

  injectContext(items: readonly ContextItem[], options?: { profile?: string }): Promise<void> {
    try {
      // it changes what the model sees: allowed where a submission is
      this.require('submit_turn');
      this.refuseAfterFailure();
      const profile = options?.profile ?? this.ctx.defaultProfile;
      return injectContext(this.pool, this.ctx.log, items, profile);
    } catch (error) {
      return rejection(error);
    }
  }

  revert(options: RevertOptions): Promise<RevertResult> {
    try {
      // taking turns back changes what the next turn sees: allowed where a submission is
      this.require('submit_turn');
      this.refuseAfterFailure();
      const request = checkedRevert(options);
      if (this.run !== undefined || this.admitting !== undefined) {
        throw new RuntimeError(
          'illegal_state_transition',
          'session_busy',
          'the session has an active run',
          {
            details: this.run === undefined ? {} : { activeRunId: this.run.runId },
          },
        );
      }
      const profile = options.profile ?? this.ctx.defaultProfile;
      // held like an admission: no turn starts while the provider reverts
      return this.holding(revertProvider(this.pool, this.ctx.log, profile, request));
    } catch (error) {
      return rejection(error);
    }
  }

  history(options: HistoryOptions = {}): Promise<HistoryPage> {
    try {
      // a read of what the provider holds: any state but closed
      if (this.current === 'closed' || this.current === 'failed')
        throw notAllowed(this.current, 'submit_turn');
      return readProviderHistory(this.pool, options.profile ?? this.ctx.defaultProfile, options);
    } catch (error) {
      return rejection(error);
    }
  }

  close(): Promise<void> {
    if (this.current === 'closed' || this.current === 'failed') return Promise.resolve();
    this.closingAttempt ??= this.attemptClose().finally(() => {
      this.closingAttempt = undefined;
    });
    return this.closingAttempt;
  }

  private async attemptClose(): Promise<void> {
    if (this.current === 'ready') {
      this.moveTo('closing');
      // `closing` is durable before the provider hears of the close (ADR-0046). A log that
      // cannot record it still stops its provider sessions below (a stop is never fenced; the
      // run's interrupt is, in RunDriver), and close rejects with the store's error at the end
      await this.ctx.log.durable().catch(() => undefined);
    }
    // every wait of close is bounded: a provider that never answers cannot hold it
    const grace: Grace = (work) => within(this.ctx.clock, this.ctx.closeGraceMs, work);
    if (this.admitting !== undefined && !(await grace(this.admitting.catch(() => 0))).ok) {
      // a provider session still opening is disposed when it arrives
      this.pool.abandonOpening(notAllowed(this.current, 'submit_turn'));
    }
    const run = this.run;
    if (run !== undefined && !run.finished)
      await grace(run.interrupt('session closing').catch(() => 0));
    const failures = await this.pool.disposeAll(grace);
    if (failures.length > 0) {
      await this.ctx.log.durable();
      throw new RuntimeError(
        'provider_unavailable',
        'dispose_failed',
        'a provider session could not be disposed; retry close',
        { details: { failures } },
      );
    }
    if (run !== undefined && !run.finished) await settleAfterDispose(run, grace);
    this.moveTo('closed');
    this.ctx.log.append({ type: 'session.closed', reason: 'requested' });
    this.ctx.onClosed(this);
    await this.ctx.log.durable();
  }

  /** The log failed for good: its providers are stopped at once (closing.ts). Never throws. */
  disposeAfterFailure(error: RuntimeError): Promise<void> {
    if (this.admitting !== undefined) this.pool.abandonOpening(error);
    const grace: Grace = (work) => within(this.ctx.clock, this.ctx.closeGraceMs, work);
    return stopAfterFailure(this.pool, this.run, grace);
  }

  subscribe(options?: SubscribeOptions): EventSubscription {
    return this.ctx.subscribe(options);
  }
}
