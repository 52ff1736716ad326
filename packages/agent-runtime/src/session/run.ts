import type { TurnRunOptions } from './turn-options.js';
import {
  agentError,
  canInterruptRun,
  canSteerRun,
  isProviderRejection,
  isTerminal,
  RUN_STATE_TABLE,
  toAgentError,
  type InteractionRequest,
  type ProviderEventPayload,
  type ProviderEventSink,
  type ProviderRun,
  type ProviderRunTermination,
  type ProviderSession,
  type RunState,
  type TurnInput,
} from '@relvo-labs/agent-provider';
import type { EventPayload } from '../envelope.js';
import { rejection, RuntimeError } from '../errors.js';
import { failedWith, intakeTermination, recordedEmission, type Verdict } from './intake.js';
import type { InteractionRun } from './interactions.js';
import { providerCallError } from './provider-call.js';
import type { RunContext } from './run-context.js';
import { StagedEmissions } from './staging.js';
import { recordSettlement, reportTurn, type TurnResult } from './turn-result.js';

export type { RunContext } from './run-context.js';
export { STAGED_EMISSIONS_LIMIT } from './staging.js';

const UNCONFIRMED_START = 'the provider did not confirm that the run started';

function noActiveRun(): RuntimeError {
  return new RuntimeError('unknown_run', 'no_active_run', 'the session has no active run to steer');
}

/** One run of a turn: its state machine, its sink, its interrupt fence. */
export class RunDriver implements InteractionRun {
  state: RunState = 'starting';
  readonly sink: ProviderEventSink;
  readonly done: Promise<TurnResult>;
  private resolveDone!: (result: TurnResult) => void;
  private readonly staged = new StagedEmissions();
  /** What intake said of the emission being handled (read right after it judged). */
  private readonly verdict: Verdict = { asIs: false };
  private stale = false;
  /** In-memory interrupt fence (docs/spi.md §18): interaction requests become diagnostics. */
  private fence = false;
  private providerRun: ProviderRun | undefined;
  private started: Promise<void>;
  private markStarted!: () => void;
  private interrupting: Promise<void> | undefined;

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

  private staleNow(): boolean {
    return this.stale;
  }

  /** Started, not finished, not being interrupted; a method: read anew after an await. */
  private steerable(): boolean {
    return !this.stale && !this.fence && this.providerRun !== undefined;
  }

  /** `judged`: intake admitted the payload as the log holds it (its verdict, passed along). */
  private append(payload: EventPayload, judged = false): void {
    this.ctx.log.append(payload, this.runId, judged);
  }

  private moveTo(to: RunState): void {
    this.append({ type: 'run.state_changed', from: this.state, to });
    this.state = to;
  }

  start(input: TurnInput, options: TurnRunOptions = {}): void {
    let starting: Promise<ProviderRun>;
    try {
      starting = this.ctx.providerSession.startRun({
        ...options,
        input,
        sink: this.sink,
        runRef: this.runId,
      });
    } catch (error) {
      starting = rejection(error);
    }
    Promise.resolve(starting).then(
      (run) => {
        this.onStarted(run);
      },
      (error: unknown) => {
        this.markStarted();
        // only a refusal is definite: anything else may have left the provider session busy
        if (isProviderRejection(error)) this.finish(failedWith(error.agentError), false);
        else this.finish(failedWith(agentError('provider_unavailable', UNCONFIRMED_START)), true);
      },
    );
  }

  /** The run could not be recorded: it never reaches the provider and ends failed. */
  abandon(error: unknown): void {
    this.markStarted();
    this.finish(failedWith(toAgentError(error)), false);
  }

  private onStarted(run: ProviderRun): void {
    this.markStarted();
    if (this.stale) return;
    this.providerRun = run;
    this.moveTo('running');
    const { payloads, overflow } = this.staged.drain();
    for (const payload of payloads) this.handle(payload);
    if (overflow !== undefined) this.append(overflow);
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
    const payload = recordedEmission(input, this.verdict);
    if (this.state === 'starting') {
      // held back and handled later: the log judges it then
      this.staged.push(payload);
      return;
    }
    this.handle(payload, this.verdict.asIs);
  }

  private handle(payload: ProviderEventPayload, judged = false): void {
    switch (payload.type) {
      case 'interaction.requested':
        this.raise(payload.providerRef, payload.request);
        return;
      case 'interaction.withdrawn':
        this.withdraw(payload.providerRef);
        return;
      default:
        this.append(payload, judged);
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
    if (!this.ctx.interactions.raise(this, providerRef, request, this.ctx.expiry)) return;
    if (this.state === 'running') this.moveTo('awaiting_interaction');
  }

  private withdraw(providerRef: string): void {
    // a provider withdraws what our own interrupt ends: that is the interrupt's cancellation
    this.ctx.interactions.withdraw(this, providerRef, this.fence ? 'cancelled' : 'withdrawn');
  }

  /** Leaves `awaiting_interaction` once none of its interactions is left unsettled. */
  interactionSettled(open: number): void {
    if (!this.stale && this.state === 'awaiting_interaction' && open === 0) this.moveTo('running');
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

  /** Adds input to the provider run once it started; refused once it finished or is interrupting. */
  async steer(input: TurnInput): Promise<void> {
    if (!canSteerRun(this.ctx.descriptor).ok) {
      throw new RuntimeError(
        'capability_unsupported',
        'steer_unsupported',
        'the provider cannot steer a run',
      );
    }
    await this.started;
    const run = this.providerRun;
    if (!this.steerable() || run === undefined) throw noActiveRun();
    // recorded under the lease before the provider sees it (ADR-0046)
    this.append({ type: 'run.steered', input });
    await this.ctx.log.durable();
    // the run may have ended or been interrupted while the record was committed
    if (!this.steerable()) throw noActiveRun();
    try {
      await (run.steer?.(input) ?? Promise.reject(new Error('steer missing')));
    } catch (error) {
      throw providerCallError(error, 'steer');
    }
  }

  private async doInterrupt(reason: string | undefined): Promise<void> {
    await this.started;
    const run = this.providerRun;
    if (this.stale || run === undefined) return;
    this.fence = true;
    // recorded under the lease before the provider sees it (ADR-0046); a host that lost its
    // lease or its store interrupts nothing
    this.append({ type: 'run.interrupt_requested' });
    try {
      await this.ctx.log.durable();
    } catch (error) {
      this.fence = false;
      throw error;
    }
    // the run may have finished while the record was committed
    if (this.staleNow()) return;
    try {
      await run.interrupt(reason);
    } catch (error) {
      // a definite refusal lowers the fence; after an unknown outcome it stays until a retry succeeds
      if (isProviderRejection(error)) this.fence = false;
      throw providerCallError(error, 'interrupt');
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
    this.ctx.interactions.endRun(this);
    this.staged.clear();
    const outcome = termination.outcome;
    if (outcome === 'succeeded' && this.state === 'awaiting_interaction') this.moveTo('running');
    if (
      outcome === 'interrupted' &&
      this.state !== 'interrupting' &&
      !isTerminal(RUN_STATE_TABLE, this.state)
    ) {
      this.moveTo('interrupting');
    }
    this.state = outcome;
    const result = recordSettlement(this.ctx.log, this, termination);
    this.ctx.onFinished(this, uncertainStart);
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
