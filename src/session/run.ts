/**
 * One run = one native turn, owned from admission to settlement: its turn id once bound, its
 * stall watchdog, its output (tool activity, file changes, usage: `turn-output.ts`), the single
 * settlement of `completion` and the shared interrupt attempt. Every frame of the turn enters
 * through `receive` — the watchdog hears it, then it is applied — and nothing outside writes the
 * run's state. What follows a settlement or an interrupt goes through the `RunLifecycle` it is
 * given.
 */
import {
  type ProviderEventInput,
  type ProviderEventSink,
  type ProviderRun,
  type ProviderRunTermination,
  type TurnInput,
} from '@relvo-labs/agent-provider';
import type { InboundNotification, ServerRequestScope, UsageTotals } from '../protocol/inbound.js';
import type { CodexFileChangeItem } from '../protocol/items.js';
import type { McpCallInFlight } from './mcp-calls.js';
import type { ServerRequestOffer } from '../rpc/client.js';
import { codexRejection } from '../shared/codex-error.js';
import { RetryableAttempt } from '../shared/retryable-attempt.js';
import { callFailure } from './call-failure.js';
import { redactInteraction } from './interaction-redaction.js';
import type { StallWatchdog } from './stall-watchdog.js';
import { checkStructuredOutput, type StructuredOutput } from './structured-output.js';
import { TurnOutput, type RunFeatures, type RunRetries } from './turn-output.js';

export type { RunFeatures, RunRetries } from './turn-output.js';

export const MAX_INTERRUPT_REASON = 300;

/** What the owner of a run does when the run settles or is interrupted; passed down to it. */
export interface RunLifecycle {
  /** Sends `turn/interrupt` for the run's bound turn; resolves on the acknowledgement. */
  sendInterrupt(run: CodexRun): Promise<void>;
  /** Sends `turn/steer` for the run's bound turn; resolves once codex accepted the input. */
  sendSteer(run: CodexRun, turnId: string, input: TurnInput): Promise<void>;
  /** Synchronous part of interrupt initiation: fence and retire the run's interactions. */
  beginInterrupt(run: CodexRun): void;
  /** Called exactly once, before `completion` resolves: retire turn, clear active run, retire interactions. */
  finalize(run: CodexRun): void;
}

export interface CodexRunParams {
  readonly runRef: string;
  readonly sink: ProviderEventSink;
  readonly lifecycle: RunLifecycle;
  /** The thread's token total when the run was admitted (ADR-0012). */
  readonly threadTotal: UsageTotals;
  readonly features?: RunFeatures | undefined;
  /** The compiled `outputSchema` of the run, if it has one (ADR-0041). */
  readonly structured?: StructuredOutput | undefined;
}

const SERVER_REQUEST = Object.freeze({ method: 'serverRequest' as const });

export class CodexRun implements ProviderRun {
  readonly completion: Promise<ProviderRunTermination>;
  readonly runRef: string;
  readonly #sink: ProviderEventSink;
  readonly #lifecycle: RunLifecycle;
  readonly #output: TurnOutput;
  #resolve: (t: ProviderRunTermination) => void = () => undefined;
  /** Resolves a pending `interrupt()` once the run settled while codex could still answer. */
  #releaseInterrupt: () => void = () => undefined;
  readonly #interruptReleased: Promise<void>;
  #settled = false;
  #finalizing = false;
  /** Shared by concurrent callers; a failed attempt is forgotten so a retry sends afresh. */
  readonly #interruptAttempt = new RetryableAttempt({ once: true });
  #interruptInitiated = false;
  #interruptReason: string | undefined;
  /** The native turn id once `turn/start` answered. Never published. */
  #turnId: string | undefined;
  #watchdog: StallWatchdog | undefined;
  #failedBeforeBinding = false;
  readonly #structured: StructuredOutput | undefined;
  /** The message text of a structured run, checked against its schema when it succeeds. */
  #answer = '';
  /** Whether codex reported the turn active (`turn/started`); it refuses interrupts before. */
  #active = false;
  #activated: () => void = () => undefined;
  /** Resolves `true` on `turn/started`, `false` when the run settles first. */
  readonly activation: Promise<boolean>;
  /** The run's sink as interactions see it: silent once the run has settled. */
  readonly sink: ProviderEventSink;

  constructor(params: CodexRunParams) {
    this.runRef = params.runRef;
    this.#sink = params.sink;
    this.#lifecycle = params.lifecycle;
    this.#structured = params.structured;
    this.#output = new TurnOutput(this, params.threadTotal, params.features);
    this.sink = {
      emit: (event) => {
        this.emit(redactInteraction(event));
      },
    };
    this.completion = new Promise((resolve) => {
      this.#resolve = resolve;
    });
    this.#interruptReleased = new Promise((resolve) => {
      this.#releaseInterrupt = resolve;
    });
    this.activation = new Promise((resolve) => {
      this.#activated = () => {
        resolve(!this.#settled);
      };
    });
  }

  /** Whether codex reported the turn active (`turn/started` heard). */
  get active(): boolean {
    return this.#active;
  }

  get settled(): boolean {
    return this.#settled;
  }

  get turnId(): string | undefined {
    return this.#turnId;
  }

  /** Failed before its turn id was known: that turn is interrupted once when the id shows up. */
  get failedBeforeBinding(): boolean {
    return this.#failedBeforeBinding;
  }

  /** Interactions are refused for the rest of the run's life once an interrupt began. */
  get interactionsFenced(): boolean {
    return this.#interruptInitiated;
  }

  get retries(): RunRetries {
    return this.#output.retries;
  }

  get interruptReason(): string | undefined {
    return this.#interruptReason;
  }

  get stalled(): boolean {
    return this.#watchdog?.stalled === true;
  }

  /** `turn/start` answered: the run owns this turn, watched by `watch` when a policy is set. */
  bind(turnId: string, watch?: (run: CodexRun) => StallWatchdog): void {
    this.#turnId = turnId;
    if (watch !== undefined) this.#watchdog = watch(this);
  }

  /** One notification of the run's turn: the watchdog hears it, then it is applied. */
  receive(frame: InboundNotification): void {
    if (this.#settled) return;
    this.#watchdog?.frame(frame);
    if (frame.method === 'turn/started' && !this.#active) {
      this.#active = true;
      this.#activated();
    }
    this.#output.apply(frame);
  }

  /** A server request of the session while the run is active (codex spoke: progress). */
  serverRequest(offer: ServerRequestOffer, scope: ServerRequestScope): ServerRequestOffer {
    this.#watchdog?.frame(SERVER_REQUEST);
    return this.#output.observe(offer, scope);
  }

  otherTurnUsage(threadTotal: UsageTotals): void {
    this.#output.otherTurnUsage(threadTotal);
  }

  fileChange(turnId: string, itemId: string): CodexFileChangeItem | undefined {
    return this.#turnId === turnId ? this.#output.fileChange(turnId, itemId) : undefined;
  }

  mcpCall(turnId: string, server: string): McpCallInFlight | undefined {
    return this.#turnId === turnId ? this.#output.mcpCall(server) : undefined;
  }

  /**
   * Emits on the run's sink unless the run has settled; while it settles, only the withdrawal
   * of what it leaves unanswered still goes out, before `completion`. A throwing host sink is
   * contained.
   */
  emit(event: ProviderEventInput): void {
    if (this.#settled && !(this.#finalizing && event.payload.type === 'interaction.withdrawn')) {
      return;
    }
    if (this.#structured !== undefined && event.payload.type === 'run.message_delta') {
      this.#answer += event.payload.text;
    }
    // inline rather than callSafely: this runs for every delta, and a closure each costs
    try {
      this.#sink.emit(event);
    } catch {
      // a host sink that throws must not break the read loop
    }
  }

  /** Fails the run before its turn id is known; its turn is interrupted once when bound. */
  failBeforeBinding(termination: ProviderRunTermination): void {
    if (this.#settled) return;
    this.#failedBeforeBinding = true;
    this.settle(termination);
  }

  /**
   * First caller wins; later settlements are ignored. The watchdog stops with it, and a pending
   * `interrupt()` resolves — unless the connection ended, which answers that call itself (it
   * rejects as uncertain: the interrupt may have been applied).
   */
  settle(settlement: ProviderRunTermination, cause?: 'connection_end'): boolean {
    if (this.#settled) return false;
    const termination = this.#structuredOutcome(settlement);
    this.#settled = true;
    this.#watchdog?.stop();
    this.#finalizing = true;
    try {
      this.#lifecycle.finalize(this);
    } finally {
      this.#finalizing = false;
    }
    this.#resolve(termination);
    this.#activated();
    if (cause !== 'connection_end') this.#releaseInterrupt();
    return true;
  }

  /** A structured run that succeeded: its answer is delivered, or the run fails (ADR-0041). */
  #structuredOutcome(termination: ProviderRunTermination): ProviderRunTermination {
    const structured = this.#structured;
    if (structured === undefined || termination.outcome !== 'succeeded') return termination;
    const checked = checkStructuredOutput(structured, this.#answer);
    if (!checked.ok) return checked.termination;
    this.emit({
      payload: {
        type: 'run.extension',
        namespace: 'codex',
        kind: 'structured_output',
        data: { value: checked.value },
      },
    });
    return termination;
  }

  /**
   * Adds input to the bound turn (`turn/steer` with its id as the expected one). Refused
   * definitely once the run settled or an interrupt began; never retried by the adapter.
   */
  steer(input: TurnInput): Promise<void> {
    const turnId = this.#turnId;
    if (this.#settled || this.#interruptInitiated || turnId === undefined) {
      return Promise.reject(
        codexRejection('illegal_state_transition', 'the codex run is not active', {
          details: { refusal: 'no_active_turn' },
        }),
      );
    }
    return this.#lifecycle.sendSteer(this, turnId, input).catch((error: unknown) => {
      callFailure('steer', error);
    });
  }

  /**
   * Shared by concurrent callers. Never waits on a frozen app-server: once the run has settled
   * (its own turn/completed, the stall watchdog, a fence, disposal), a pending call resolves.
   */
  interrupt(reason?: string): Promise<void> {
    if (this.#settled) return Promise.resolve();
    const attempt = this.#interruptAttempt.run(() => {
      if (reason !== undefined && this.#interruptReason === undefined) {
        this.#interruptReason = reason.slice(0, MAX_INTERRUPT_REASON);
      }
      if (!this.#interruptInitiated) {
        this.#interruptInitiated = true;
        this.#lifecycle.beginInterrupt(this);
      }
      return this.#lifecycle.sendInterrupt(this).catch((error: unknown) => {
        callFailure('interrupt', error);
      });
    });
    return Promise.race([attempt, this.#interruptReleased]);
  }
}
