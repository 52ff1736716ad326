import { agentError, ProviderRejection } from '../../errors.js';
import type { ProviderEventSink, ProviderRun } from '../../interfaces.js';
import type { ProviderEventInput } from '../../schemas/events.js';
import type { InteractionRequest } from '../../schemas/interaction.js';
import type { ProviderRunTermination } from '../../schemas/termination.js';
import { turnInputSchema, type TurnInput } from '../../schemas/turn.js';
import type { ScriptStep } from './steps.js';

/** How a scripted run terminates an interrupt; `unsupported` is handled by the caller. */
export interface ScriptedRunHost {
  readonly interruptMode: 'immediate' | 'cooperative' | 'unsupported';
  readonly supportsSteer: boolean;
  /** Called for each accepted steer, with its text parts joined together. */
  onSteered(run: ScriptedRun, text: string): void;
  /** Called once, when the run settles. */
  onSettled(run: ScriptedRun): void;
  /** Called once, when an interrupt takes effect. */
  onInterrupted(run: ScriptedRun, reason: string | undefined): void;
}

export interface PendingAsk {
  readonly ref: string;
  readonly request: InteractionRequest;
}

const REASON_MAX = 2000;

/**
 * One scripted run. Steps only advance inside `advance()` (the controller's drain), so the
 * double has no timers; `completion` settles exactly once and the sink falls silent after it.
 */
export class ScriptedRun implements ProviderRun {
  readonly completion: Promise<ProviderRunTermination>;
  readonly runRef: string;
  readonly #sink: ProviderEventSink;
  readonly #steps: readonly ScriptStep[];
  readonly #host: ScriptedRunHost;
  #index = 0;
  #resolve: (t: ProviderRunTermination) => void = () => undefined;
  #done = false;
  #outcome: ProviderRunTermination['outcome'] | undefined;
  #waiting: PendingAsk | undefined;
  /** Set by a cooperative interrupt; applied on the next drain. */
  #interruptRequested = false;
  #interruptReason: string | undefined;

  constructor(
    runRef: string,
    sink: ProviderEventSink,
    steps: readonly ScriptStep[],
    host: ScriptedRunHost,
  ) {
    this.runRef = runRef;
    this.#sink = sink;
    this.#steps = steps;
    this.#host = host;
    this.completion = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  get done(): boolean {
    return this.#done;
  }

  get waiting(): PendingAsk | undefined {
    return this.#waiting;
  }

  /** Unblocks the run after its pending ask was answered; the next drain continues it. */
  release(ref: string): void {
    if (this.#waiting?.ref === ref) this.#waiting = undefined;
  }

  /**
   * Runs steps until the run finishes or blocks on an ask. Returns whether anything changed.
   */
  advance(): boolean {
    if (this.#done) return false;
    if (this.#interruptRequested) {
      this.terminate(this.#interruptReason);
      return true;
    }
    if (this.#waiting !== undefined) return false;
    let progressed = false;
    while (!this.#blocked()) {
      progressed = true;
      const step = this.#steps[this.#index];
      this.#index += 1;
      if (step === undefined) {
        this.#settle({ outcome: 'succeeded' });
        break;
      }
      this.#apply(step);
    }
    return progressed;
  }

  #blocked(): boolean {
    return this.#done || this.#waiting !== undefined;
  }

  interrupt(reason?: string): Promise<void> {
    if (this.#host.interruptMode === 'unsupported') {
      return Promise.reject(
        new ProviderRejection(
          agentError(
            'capability_unsupported',
            'the scripted provider does not support interrupting a run',
            {
              details: { capability: 'run.interrupt' },
            },
          ),
        ),
      );
    }
    if (this.#done || this.#interruptRequested) return Promise.resolve();
    const bounded = reason?.slice(0, REASON_MAX);
    if (this.#host.interruptMode === 'immediate') this.terminate(bounded);
    else {
      this.#interruptRequested = true;
      this.#interruptReason = bounded;
    }
    return Promise.resolve();
  }

  /** Records the input; the script itself does not change (steps are fixed at start). */
  steer(input: TurnInput): Promise<void> {
    const refuse = (...args: Parameters<typeof agentError>): Promise<never> =>
      Promise.reject(new ProviderRejection(agentError(...args)));
    if (!this.#host.supportsSteer) {
      return refuse('capability_unsupported', 'the scripted provider does not support steering', {
        details: { capability: 'run.steer' },
      });
    }
    if (this.#done) return refuse('illegal_state_transition', 'the scripted run is not active');
    const parsed = turnInputSchema.safeParse(input);
    if (!parsed.success) return refuse('invalid_request', 'the steer input is invalid');
    const text = parsed.data.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
    this.#host.onSteered(this, text);
    return Promise.resolve();
  }

  /** Ends the run as interrupted now (immediate interrupt, cooperative drain, dispose). */
  terminate(reason: string | undefined): void {
    if (this.#done) return;
    this.#host.onInterrupted(this, reason);
    this.#settle(
      reason === undefined ? { outcome: 'interrupted' } : { outcome: 'interrupted', reason },
    );
  }

  #apply(step: ScriptStep): void {
    switch (step.type) {
      case 'delta':
        this.#emit({ payload: { type: 'run.message_delta', text: step.text } });
        return;
      case 'tool':
        this.#emit({
          payload:
            step.detail === undefined
              ? { type: 'run.tool_activity', toolName: step.toolName, phase: step.phase }
              : {
                  type: 'run.tool_activity',
                  toolName: step.toolName,
                  phase: step.phase,
                  detail: step.detail,
                },
        });
        return;
      case 'usage':
        this.#emit({ payload: { type: 'run.usage', usage: step.usage } });
        return;
      case 'diagnostic':
        this.#emit({ payload: { type: 'diagnostic', level: step.level, message: step.message } });
        return;
      case 'extension':
        this.#emit({
          payload: {
            type: 'run.extension',
            namespace: step.namespace,
            kind: step.kind,
            data: step.data,
          },
        });
        return;
      case 'ask':
        // Blocks first, so a host that answers from inside emit finds the ask pending.
        this.#waiting = { ref: step.ref, request: step.request };
        this.#emit({
          payload: { type: 'interaction.requested', providerRef: step.ref, request: step.request },
        });
        return;
      case 'succeed':
        this.#settle({ outcome: 'succeeded' });
        return;
      case 'fail':
        this.#settle({ outcome: 'failed', error: agentError('provider_rejected', step.message) });
        return;
    }
  }

  #emit(event: ProviderEventInput): void {
    if (this.#done) return;
    try {
      this.#sink.emit(event);
    } catch {
      // emit is specified never to throw; a misbehaving test sink must not break the script
    }
  }

  /** How the session's history lists this run: its outcome, or `running` until it settles. */
  outcomeForHistory(): 'succeeded' | 'failed' | 'interrupted' | 'running' {
    return this.#outcome ?? 'running';
  }

  #settle(termination: ProviderRunTermination): void {
    if (this.#done) return;
    this.#done = true;
    this.#outcome = termination.outcome;
    this.#waiting = undefined;
    this.#host.onSettled(this);
    this.#resolve(termination);
  }
}
