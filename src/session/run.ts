/**
 * One run = one native turn. Owns the single settlement of `completion` and the shared
 * interrupt attempt; the session decides when frames settle it. The run knows nothing above
 * it: what follows a settlement or an interrupt goes through the `RunLifecycle` it is given.
 */
import {
  AgentRuntimeError,
  isProviderRejection,
  type ProviderEventInput,
  type ProviderEventSink,
  type ProviderRun,
  type ProviderRunTermination,
} from '@relvo-labs/agent-provider';
import { causeTokenOf } from '../shared/cause-token.js';
import { isProviderCode, type UpstreamProviderCode } from '../protocol/vocabulary.js';
import { agentErrorOf } from '../rpc/errors.js';
import { codexError } from '../shared/codex-error.js';
import { redact } from '../shared/redact.js';
import { RetryableAttempt } from '../shared/retryable-attempt.js';
import type { FileChangeMemory } from './file-changes.js';
import type { HeldInvocations } from './held-invocations.js';
import type { RunUsage } from './run-usage.js';
import type { StallWatchdog } from './stall-watchdog.js';
import type { ToolActivityTracker } from './tool-activity.js';

export const MAX_INTERRUPT_REASON = 300;

/** codex's retry notices in this run: how many, and the last one's upstream code. */
export interface RunRetries {
  readonly count: number;
  readonly lastCause: UpstreamProviderCode | undefined;
}

/** What the owner of a run does when the run settles or is interrupted; passed down to it. */
export interface RunLifecycle {
  /** Sends `turn/interrupt` for the run's bound turn; resolves on the acknowledgement. */
  sendInterrupt(run: CodexRun): Promise<void>;
  /** Synchronous part of interrupt initiation: fence and retire the run's interactions. */
  beginInterrupt(run: CodexRun): void;
  /** Called exactly once, before `completion` resolves: retire turn, clear active run, retire interactions. */
  finalize(run: CodexRun): void;
}

export class CodexRun implements ProviderRun {
  readonly completion: Promise<ProviderRunTermination>;
  readonly runRef: string;
  readonly #sink: ProviderEventSink;
  readonly #lifecycle: RunLifecycle;
  #resolve: (t: ProviderRunTermination) => void = () => undefined;
  #settled = false;
  #finalizing = false;
  /** Shared by concurrent callers; a failed attempt is forgotten so a retry sends afresh. */
  readonly #interruptAttempt = new RetryableAttempt({ once: true });
  #interruptInitiated = false;
  #interruptReason: string | undefined;
  /** The run's sink as interactions see it: silent once the run has settled. */
  readonly sink: ProviderEventSink;
  /** The native turn id once `turn/start` answered. Never published. */
  turnId: string | undefined;
  /** The bound turn's stall watchdog, when one is configured (ADR-0008). */
  watchdog: StallWatchdog | undefined;
  /** Set when a pre-binding terminal overflow failed the run before its id was known. */
  failedBeforeBinding = false;
  /** Present when tool activity is published (ADR-0014). */
  toolActivity: ToolActivityTracker | undefined;
  /** With tool activity: the `invoked` of commands that wait for their approval. */
  heldInvocations: HeldInvocations | undefined;
  /** Present when file changes are bridged: the patches announced on this run's turn. */
  fileChanges: FileChangeMemory | undefined;

  #retries: RunRetries = { count: 0, lastCause: undefined };

  /** The run's own cumulative usage (docs/adr/ADR-0012-run-usage.md). */
  readonly usage: RunUsage;

  constructor(runRef: string, sink: ProviderEventSink, lifecycle: RunLifecycle, usage: RunUsage) {
    this.runRef = runRef;
    this.usage = usage;
    this.#sink = sink;
    this.#lifecycle = lifecycle;
    this.sink = {
      emit: (event) => {
        this.emit(redactInteraction(event));
      },
    };
    this.completion = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  get settled(): boolean {
    return this.#settled;
  }

  /** Interactions are refused for the rest of the run's life once an interrupt began. */
  get interactionsFenced(): boolean {
    return this.#interruptInitiated;
  }

  get retries(): RunRetries {
    return this.#retries;
  }

  /** codex announced it retries a failed model request (an `error` with `willRetry`). */
  noteRetry(cause: UpstreamProviderCode): void {
    this.#retries = { count: this.#retries.count + 1, lastCause: cause };
  }

  get interruptReason(): string | undefined {
    return this.#interruptReason;
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
    // inline rather than callSafely: this runs for every delta, and a closure each costs
    try {
      this.#sink.emit(event);
    } catch {
      // a host sink that throws must not break the read loop
    }
  }

  /** First caller wins; later settlements are ignored. */
  settle(termination: ProviderRunTermination): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    this.#finalizing = true;
    try {
      this.#lifecycle.finalize(this);
    } finally {
      this.#finalizing = false;
    }
    this.#resolve(termination);
    return true;
  }

  interrupt(reason?: string): Promise<void> {
    if (this.#settled) return Promise.resolve();
    return this.#interruptAttempt.run(() => {
      if (reason !== undefined && this.#interruptReason === undefined) {
        this.#interruptReason = reason.slice(0, MAX_INTERRUPT_REASON);
      }
      if (!this.#interruptInitiated) {
        this.#interruptInitiated = true;
        this.#lifecycle.beginInterrupt(this);
      }
      return this.#lifecycle.sendInterrupt(this).catch((error: unknown) => {
        // a refusal proves nothing was applied; anything else may still apply (docs/spi.md §15)
        if (isProviderRejection(error)) throw error;
        const known = agentErrorOf(error);
        if (known !== undefined) {
          throw new AgentRuntimeError(
            codexError(
              known.code,
              `codex did not answer the interrupt (${known.providerCode ?? known.code})`,
              {
                ...(isProviderCode(known.providerCode) ? { providerCode: known.providerCode } : {}),
              },
            ),
            { cause: error },
          );
        }
        const token = causeTokenOf(error);
        throw new AgentRuntimeError(
          codexError('provider_unavailable', `codex interrupt failed (${token})`, {
            details: { cause: token },
          }),
          { cause: error },
        );
      });
    });
  }
}

/** Deep copy with every string passed through the redactor. */
function redactStrings(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(redactStrings);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v)]));
  }
  return value;
}

/**
 * Interaction requests publish upstream text (approval subjects, question prose); the
 * credential redactor (docs/behaviour.md §10.5) is the backstop for them. Redaction only shortens text, so
 * every bound the request was checked against still holds.
 */
function redactInteraction(event: ProviderEventInput): ProviderEventInput {
  if (event.payload.type !== 'interaction.requested') return event;
  return {
    payload: {
      ...event.payload,
      request: redactStrings(event.payload.request) as typeof event.payload.request,
    },
  };
}
