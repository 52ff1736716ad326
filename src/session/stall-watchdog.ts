/**
 * The stall watchdog of one bound turn (ADR-0008). It counts the time the turn waits on codex or
 * the model: every frame of the turn restarts the count, except codex's retry notices and what
 * codex repeats while it retries (a retry is not progress); while a command (or another tool) runs,
 * or an approval or question waits for a person, the count does not expire — it is re-armed
 * instead. When it expires, `onStall` runs once; `onUnresponsive` runs once if no terminal
 * frame settled the run within the grace period after that. Pure timing: no I/O, an injected
 * clock.
 */
import type { InboundNotification } from '../protocol/inbound.js';
import type { TimerClock } from '../shared/unref-clock.js';

export type WatchdogClock = TimerClock;

/** What the watchdog hears: a decoded notification of the turn, or a server request for it. */
export type WatchdogFrame = InboundNotification | { readonly method: 'serverRequest' };

export interface StallWatchdogParams {
  readonly stallTimeoutMs: number;
  readonly graceMs: number;
  readonly clock: WatchdogClock;
  /** True while an approval or question of this turn waits for a person. */
  readonly waitingOnPerson: () => boolean;
  readonly onStall: () => void;
  readonly onUnresponsive: () => void;
}

/** Item types whose duration is the work itself, not codex or the model being silent. */
const WORK_ITEM_TYPES: ReadonlySet<string> = new Set([
  'commandExecution',
  'mcpToolCall',
  'dynamicToolCall',
  'collabAgentToolCall',
]);

export class StallWatchdog {
  readonly #params: StallWatchdogParams;
  /** Work items started and not yet completed. */
  readonly #working = new Set<string>();
  #timer: unknown;
  #graceTimer: unknown;
  #stalled = false;
  #stopped = false;
  #restartQueued = false;
  /** Since codex's last retry notice, with no output of the model after it. */
  #retrying = false;

  constructor(params: StallWatchdogParams) {
    this.#params = params;
    this.#arm();
  }

  /** Whether the watchdog fired (the run's interrupted outcome is then a stall failure). */
  get stalled(): boolean {
    return this.#stalled;
  }

  /** A frame of this turn arrived: the count restarts; work items open and close. */
  frame(frame: WatchdogFrame): void {
    if (this.#stopped || this.#stalled) return;
    const started = frame.method === 'item/started';
    const work =
      (started || frame.method === 'item/completed') && WORK_ITEM_TYPES.has(frame.itemType);
    if (work) {
      if (started) this.#working.add(frame.itemId);
      else this.#working.delete(frame.itemId);
    }
    // codex's own retry notice: an `error` notification with `willRetry: true`
    if (frame.method === 'error' && frame.retryNotice) {
      this.#retrying = true;
      return;
    }
    // a retried request re-announces its (still empty) message: that is not output yet
    if (this.#retrying && started && !work) return;
    this.#retrying = false;
    this.#restart();
  }

  /**
   * With a refreshable clock the count restarts once per synchronous burst of frames, right
   * after it (a microtask), instead of once per frame: a 64 KiB read holds hundreds of deltas.
   * The deadline then runs from the end of the burst, never earlier than from its last frame.
   */
  #restart(): void {
    if (this.#params.clock.refresh === undefined) {
      this.#arm();
      return;
    }
    if (this.#restartQueued) return;
    this.#restartQueued = true;
    queueMicrotask(this.#afterBurst);
  }

  readonly #afterBurst = (): void => {
    this.#restartQueued = false;
    if (!this.#stopped && !this.#stalled) this.#arm();
  };

  /** The run settled (or the session is going away): no timer survives it. */
  stop(): void {
    this.#stopped = true;
    this.#clear();
    if (this.#graceTimer !== undefined) this.#params.clock.clearTimeout(this.#graceTimer);
    this.#graceTimer = undefined;
  }

  #clear(): void {
    if (this.#timer !== undefined) this.#params.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(): void {
    const { clock } = this.#params;
    if (this.#timer !== undefined && clock.refresh !== undefined) {
      clock.refresh(this.#timer);
      return;
    }
    this.#clear();
    this.#timer = this.#params.clock.setTimeout(() => {
      this.#expire();
    }, this.#params.stallTimeoutMs);
  }

  #expire(): void {
    this.#timer = undefined;
    if (this.#stopped || this.#stalled) return;
    // a running command or a person's answer is not a stall: count again from now
    if (this.#working.size > 0 || this.#params.waitingOnPerson()) {
      this.#arm();
      return;
    }
    this.#stalled = true;
    this.#graceTimer = this.#params.clock.setTimeout(() => {
      this.#graceTimer = undefined;
      if (!this.#stopped) this.#params.onUnresponsive();
    }, this.#params.graceMs);
    this.#params.onStall();
  }
}
