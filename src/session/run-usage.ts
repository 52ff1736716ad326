/**
 * `run.usage` as the run's own cumulative usage (docs/adr/ADR-0012): codex reports the thread's
 * running `total` with every model response; a run's usage is what that total grew by on the
 * run's own turn. Pure bookkeeping, no I/O, over totals the edge already decoded.
 */
import type { ProviderEventInput } from '@relvo-labs/agent-provider';
import type { UsageTotals } from '../protocol/inbound.js';

export type { UsageTotals } from '../protocol/inbound.js';

export const ZERO_USAGE: UsageTotals = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

const FIELDS = ['inputTokens', 'outputTokens', 'totalTokens'] as const;

function atLeast(a: UsageTotals, b: UsageTotals): boolean {
  return FIELDS.every((f) => a[f] >= b[f]);
}

/** One run's view: its starting thread total and the last cumulative figure it published. */
export class RunUsage {
  #start: UsageTotals;
  /** The thread total of the last update counted (the run's own) or skipped (another turn's). */
  #last: UsageTotals;
  #published: UsageTotals = ZERO_USAGE;
  #seenOwn = false;

  constructor(threadTotalAtStart: UsageTotals) {
    this.#start = threadTotalAtStart;
    this.#last = threadTotalAtStart;
  }

  /**
   * The `run.usage` to publish for a `thread/tokenUsage/updated` of this run's turn, or
   * undefined when the run's own usage did not grow (a repeat, a reset thread).
   */
  update(threadTotal: UsageTotals): ProviderEventInput | undefined {
    this.#seenOwn = true;
    this.#last = threadTotal;
    const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    for (const field of FIELDS) {
      const grown = threadTotal[field] - this.#start[field];
      // totals below the starting point (a reset thread) are never published
      if (grown < 0) return undefined;
      usage[field] = grown;
    }
    if (!FIELDS.some((f) => usage[f] > this.#published[f])) return undefined;
    if (FIELDS.some((f) => usage[f] < this.#published[f])) return undefined;
    this.#published = usage;
    return { payload: { type: 'run.usage', usage } };
  }

  /**
   * An update of another turn of this thread. Before the run counted its own usage it is an
   * earlier turn's (codex replays the last one after `thread/resume`, possibly while
   * `turn/start` is pending): the run's starting point. After, what that turn added since the
   * last update is not the run's, so the starting point moves by it.
   */
  otherTurn(threadTotal: UsageTotals): void {
    if (!this.#seenOwn) {
      if (atLeast(threadTotal, this.#start)) {
        this.#start = threadTotal;
        this.#last = threadTotal;
      }
      return;
    }
    if (!atLeast(threadTotal, this.#last)) return;
    const start = { ...this.#start };
    for (const field of FIELDS) start[field] += threadTotal[field] - this.#last[field];
    this.#start = start;
    this.#last = threadTotal;
  }
}
