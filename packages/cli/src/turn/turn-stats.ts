/**
 * What one turn measured for the summary line (`summary.ts`): when it was ready, its first text,
 * its usage, and the time a person spent answering, kept out of every timing. The driver feeds
 * these from the envelopes it reads; how they accrue lives here so the driver stays about the
 * session and its prompts.
 */

export interface TurnStats {
  /** performance.now() values; undefined when the point was never reached. */
  readonly submittedAt: number;
  readyAt?: number;
  firstDeltaAt?: number;
  finishedAt?: number;
  /** Time a person took to answer (union of the open waits): not part of any timing. */
  waitingMs: number;
  /** `waitingMs` as it was when the first text arrived. */
  waitingBeforeFirstDeltaMs?: number;
  readonly usage: { inputTokens: number; outputTokens: number; totalTokens: number };
  text: string;
  readonly interactions: { request: string; answer: string }[];
}

export function newTurnStats(submittedAt: number): TurnStats {
  return {
    submittedAt,
    waitingMs: 0,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    text: '',
    interactions: [],
  };
}

/** A text delta of the turn; the first one fixes the time to first text. */
export function noteDelta(stats: TurnStats, text: string, now: () => number): void {
  if (stats.firstDeltaAt === undefined) {
    stats.firstDeltaAt = now();
    stats.waitingBeforeFirstDeltaMs = stats.waitingMs;
  }
  stats.text += text;
}

/** Each run.usage is the run's cumulative usage so far (ADR-0012): the latest is kept. */
export function noteUsage(
  stats: TurnStats,
  usage: {
    readonly inputTokens?: number | undefined;
    readonly outputTokens?: number | undefined;
    readonly totalTokens?: number | undefined;
  },
): void {
  stats.usage.inputTokens = usage.inputTokens ?? stats.usage.inputTokens;
  stats.usage.outputTokens = usage.outputTokens ?? stats.usage.outputTokens;
  stats.usage.totalTokens = usage.totalTokens ?? stats.usage.totalTokens;
}

/** The open waits on a person: the clock of the timings stops while any is open. */
export class WaitingClock {
  readonly #waiting = new Set<string>();
  #since = 0;

  constructor(private readonly now: () => number) {}

  /** A person is now being asked. */
  start(interactionId: string): void {
    if (this.#waiting.size === 0) this.#since = this.now();
    this.#waiting.add(interactionId);
  }

  /** The wait ended; once none is open, the time spent is added to the turn's `waitingMs`. */
  stop(interactionId: string, stats: TurnStats | undefined): void {
    if (!this.#waiting.delete(interactionId) || this.#waiting.size > 0) return;
    if (stats !== undefined) stats.waitingMs += this.now() - this.#since;
  }
}
