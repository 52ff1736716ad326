import {
  agentError,
  canInterruptRun,
  type AgentError,
  isProviderRejection,
  isTerminal,
  SPI_LIMITS,
  RUN_STATE_TABLE,
  type InteractionRequest,
  type InteractionResponse,
  type InteractionSettlement,
  type ProviderEventPayload,
  type ProviderEventSink,
  type ProviderRun,
  type ProviderRunTermination,
  type ProviderSession,
  type RunState,
  type RunTermination,
  type SettlementOutcome,
  type TurnInput,
} from '@relvo-labs/agent-provider';
import { isoAt } from '../clock.js';
import type { EventPayload } from '../envelope.js';
import { providerRefusal, rejection, RuntimeError } from '../errors.js';
import {
  contractDiagnostic,
  failedWith,
  intakeProviderEvent,
  intakeTermination,
} from './intake.js';
import { armExpiry, expireInteraction } from './expiry.js';
import type { InteractionRecord, RunContext } from './run-context.js';
import { reportTurn, type TurnOutcome, type TurnResult } from './turn-result.js';

/** Emissions kept while a run is starting, drained after it becomes active (docs/spi.md §10.3). */
export const STAGED_EMISSIONS_LIMIT = SPI_LIMITS.preBindingEmissions;

export type { InteractionRecord, RunContext } from './run-context.js';

const TURN_STATE_OF: Readonly<Record<ProviderRunTermination['outcome'], TurnOutcome>> = {
  succeeded: 'completed',
  failed: 'failed',
  interrupted: 'cancelled',
};

/** One run of a turn: its state machine, its sink, its interactions. */
export class RunDriver {
  state: RunState = 'starting';
  readonly sink: ProviderEventSink;
  readonly done: Promise<TurnResult>;
  private resolveDone!: (result: TurnResult) => void;
  private staged: ProviderEventPayload[] = [];
  private dropped = 0;
  private stale = false;
  /** In-memory interrupt fence (docs/spi.md §18): interaction requests become diagnostics. */
  private fence = false;
  private providerRun: ProviderRun | undefined;
  private started: Promise<void>;
  private markStarted!: () => void;
  private interrupting: Promise<void> | undefined;
  private readonly refs = new Map<string, InteractionRecord>();

  constructor(
    private readonly ctx: RunContext,
    readonly runId: string,
    readonly turnId: string,
  ) {
    this.done = new Promise<TurnResult>((resolve) => {
      this.resolveDone = resolve;
    });
    this.started = new Promise<void>((resolve) => {
      this.markStarted = resolve;
    });
    this.sink = {
      emit: (input) => {
        try {
          this.onEmit(input);
        } catch {
          // the sink never throws (docs/spi.md §10.1); a store failure surfaces on the session
        }
      },
    };
  }

  get providerSession(): ProviderSession {
    return this.ctx.providerSession;
  }

  get profile(): string {
    return this.ctx.profile;
  }

  get finished(): boolean {
    return this.stale;
  }

  pendingInteractions(): InteractionRecord[] {
    return [...this.refs.values()].filter((r) => r.status !== 'settled');
  }

  private append(payload: EventPayload): void {
    this.ctx.log.append(payload, this.runId);
  }

  private moveTo(to: RunState): void {
    this.append({ type: 'run.state_changed', from: this.state, to });
    this.state = to;
  }

  start(input: TurnInput): void {
    let starting: Promise<ProviderRun>;
    try {
      starting = this.ctx.providerSession.startRun({ input, sink: this.sink, runRef: this.runId });
    } catch (error) {
      starting = rejection(error);
    }
    Promise.resolve(starting).then(
      (run) => {
        this.onStarted(run);
      },
      (error: unknown) => {
        const uncertain = !isProviderRejection(error);
        this.markStarted();
        this.finish(
          uncertain
            ? failedWith(
                agentError(
                  'provider_unavailable',
                  'the provider did not confirm that the run started',
                ),
              )
            : failedWith(error.agentError),
          uncertain,
        );
      },
    );
  }

  private onStarted(run: ProviderRun): void {
    this.markStarted();
    if (this.stale) return;
    this.providerRun = run;
    this.moveTo('running');
    const staged = this.staged;
    this.staged = [];
    for (const payload of staged) this.handle(payload);
    if (this.dropped > 0) {
      this.append({
        type: 'diagnostic',
        level: 'warning',
        message: 'emissions beyond the staging limit were dropped before the run became active',
        detail: { code: 'staging_overflow', rejected: this.dropped, limit: STAGED_EMISSIONS_LIMIT },
      });
      this.dropped = 0;
    }
    let completion: Promise<unknown>;
    try {
      completion = Promise.resolve(run.completion);
    } catch (error) {
      completion = rejection(error);
    }
    completion.then(
      (value) => {
        this.finish(intakeTermination(value), false);
      },
      () => {
        this.finish(
          failedWith(agentError('provider_contract_violation', 'the run completion rejected')),
          false,
        );
      },
    );
  }

  private onEmit(input: unknown): void {
    if (this.stale) return;
    const intake = intakeProviderEvent(input);
    const payload = intake.ok ? intake.value : contractDiagnostic(intake.reason);
    if (this.state === 'starting') {
      if (this.staged.length < STAGED_EMISSIONS_LIMIT) this.staged.push(payload);
      else this.dropped += 1;
      return;
    }
    this.handle(payload);
  }

  private handle(payload: ProviderEventPayload): void {
    switch (payload.type) {
      case 'interaction.requested':
        this.raise(payload.providerRef, payload.request);
        return;
      case 'interaction.withdrawn':
        this.withdraw(payload.providerRef);
        return;
      default:
        this.append(payload);
    }
  }

  private raise(providerRef: string, request: InteractionRequest): void {
    if (this.fence || (this.state !== 'running' && this.state !== 'awaiting_interaction')) {
      this.append({
        type: 'diagnostic',
        level: 'warning',
        message: 'an interaction request arrived while the run could not take one; it was refused',
        detail: { code: 'interaction_refused', runState: this.state },
      });
      return;
    }
    if (this.refs.has(providerRef)) {
      this.append(contractDiagnostic('duplicate_provider_ref'));
      return;
    }
    const record: InteractionRecord = {
      interactionId: this.ctx.ids('int'),
      turnId: this.turnId,
      runId: this.runId,
      providerRef,
      request,
      requestedAt: isoAt(this.ctx.clock),
      run: this,
      status: 'pending',
    };
    this.refs.set(providerRef, record);
    this.ctx.interactions.set(record.interactionId, record);
    const policy = this.ctx.expiry;
    if (policy !== undefined) {
      record.expiry = armExpiry(this.ctx.clock, policy, () => {
        expireInteraction(this, record, policy);
      });
    }
    this.append({
      type: 'interaction.requested',
      interactionId: record.interactionId,
      turnId: this.turnId,
      request,
      ...(record.expiry === undefined ? {} : { expiresAt: record.expiry.expiresAt }),
    });
    if (this.state === 'running') this.moveTo('awaiting_interaction');
  }

  private withdraw(providerRef: string): void {
    const record = this.refs.get(providerRef);
    // disregarded when never raised, already settled, or an answer is already with the provider
    if (record?.status !== 'pending') return;
    // a provider withdraws what our own interrupt ends: that is the interrupt's cancellation
    this.settle(record, this.fence ? 'cancelled' : 'withdrawn');
  }

  /** Records a settlement and lets the run leave `awaiting_interaction` when none is left. */
  settle(
    record: InteractionRecord,
    outcome: SettlementOutcome,
    response?: InteractionResponse,
    error?: AgentError,
  ): void {
    record.expiry?.cancel();
    const settlement: InteractionSettlement = { outcome, settledAt: isoAt(this.ctx.clock) };
    if (response !== undefined) settlement.response = response;
    if (error !== undefined) settlement.error = error;
    record.status = 'settled';
    record.settlement = settlement;
    delete record.inFlight;
    this.append({ type: 'interaction.settled', interactionId: record.interactionId, settlement });
    if (
      !this.stale &&
      this.state === 'awaiting_interaction' &&
      this.pendingInteractions().length === 0
    ) {
      this.moveTo('running');
    }
  }

  /** docs/spi.md §18: fence, call the provider, record `interrupting` once it accepted. */
  interrupt(reason?: string): Promise<void> {
    if (this.stale) return Promise.resolve();
    const check = canInterruptRun(this.ctx.descriptor);
    if (!check.ok) {
      return Promise.reject(
        new RuntimeError(
          'capability_unsupported',
          'interrupt_unsupported',
          'the provider cannot interrupt a run',
        ),
      );
    }
    this.interrupting ??= this.doInterrupt(reason).finally(() => {
      this.interrupting = undefined;
    });
    return this.interrupting;
  }

  private async doInterrupt(reason: string | undefined): Promise<void> {
    await this.started;
    const run = this.providerRun;
    if (this.stale || run === undefined) return;
    this.fence = true;
    try {
      await run.interrupt(reason);
    } catch (error) {
      if (isProviderRejection(error)) {
        this.fence = false;
        throw providerRefusal(error, 'provider_rejected', 'the provider refused the interrupt', {});
      }
      // unknown outcome: the fence stays until an exact retry succeeds
      throw new RuntimeError(
        'provider_unavailable',
        'provider_unknown_outcome',
        'the interrupt outcome is unknown; retry it',
        {
          cause: error,
        },
      );
    }
    if (!this.finished && (this.state === 'running' || this.state === 'awaiting_interaction')) {
      this.moveTo('interrupting');
    }
  }

  /**
   * Ends the run exactly once: pending interactions are settled first (an answer already with
   * the provider counts as responded, the rest as cancelled), then `run.finished` and
   * `turn.settled` are appended.
   */
  finish(termination: ProviderRunTermination, uncertainStart: boolean): void {
    if (this.stale) return;
    // stale first: settling here must not walk the run back to `running`
    this.stale = true;
    for (const record of this.pendingInteractions()) {
      if (record.status === 'delivering' && record.inFlight !== undefined) {
        this.settle(record, 'responded', record.inFlight);
      } else {
        this.settle(record, 'cancelled');
      }
    }
    this.staged = [];
    const outcome = termination.outcome;
    if (outcome === 'succeeded' && this.state === 'awaiting_interaction') this.moveTo('running');
    if (
      outcome === 'interrupted' &&
      this.state !== 'interrupting' &&
      !isTerminal(RUN_STATE_TABLE, this.state)
    ) {
      this.moveTo('interrupting');
    }
    const at = isoAt(this.ctx.clock);
    const stored: RunTermination =
      termination.outcome === 'failed'
        ? { outcome: 'failed', at, error: termination.error }
        : termination.outcome === 'interrupted'
          ? termination.reason === undefined
            ? { outcome: 'interrupted', at }
            : { outcome: 'interrupted', at, reason: termination.reason }
          : { outcome: 'succeeded', at };
    this.state = outcome;
    this.append({ type: 'run.finished', termination: stored });
    const turnState = TURN_STATE_OF[outcome];
    const settled = this.ctx.log.append(
      termination.outcome === 'failed'
        ? { type: 'turn.settled', turnId: this.turnId, state: turnState, error: termination.error }
        : { type: 'turn.settled', turnId: this.turnId, state: turnState },
      this.runId,
    );
    this.ctx.onFinished(this, uncertainStart);
    const result: TurnResult = {
      turnId: this.turnId,
      runId: this.runId,
      profile: this.ctx.profile,
      turnState,
      termination: stored,
      lastSequence: settled.sequence,
    };
    reportTurn(this.ctx.log, this.ctx.clock, result).then(
      (reported) => {
        this.resolveDone(reported);
      },
      () => {
        this.resolveDone(result);
      },
    );
  }
}
