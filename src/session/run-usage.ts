/**
 * `run.usage` as the run's own cumulative usage (docs/adr/ADR-0012): codex reports the thread's
 * running `total` with every model response; a run's usage is that total minus its value when
 * the run was admitted. Pure bookkeeping, no I/O.
 */
import type { ProviderEventInput } from '@relvo-labs/agent-provider';
import { tokenUsageUpdatedSchema } from '../protocol/wire.js';

export interface UsageTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

export const ZERO_USAGE: UsageTotals = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

const FIELDS = ['inputTokens', 'outputTokens', 'totalTokens'] as const;

/** The thread total a `thread/tokenUsage/updated` for `threadId` carries, when well-formed. */
export function threadTotalOf(params: unknown, threadId: string): UsageTotals | undefined {
  const parsed = tokenUsageUpdatedSchema.safeParse(params);
  if (!parsed.success || parsed.data.threadId !== threadId) return undefined;
  const { inputTokens, outputTokens, totalTokens } = parsed.data.tokenUsage.total;
  return { inputTokens, outputTokens, totalTokens };
}

/** One run's view: its starting thread total and the last cumulative figure it published. */
export class RunUsage {
  readonly #threadId: string;
  #start: UsageTotals;
  #published: UsageTotals = ZERO_USAGE;
  #seenOwn = false;

  constructor(threadId: string, threadTotalAtStart: UsageTotals) {
    this.#threadId = threadId;
    this.#start = threadTotalAtStart;
  }

  /**
   * The `run.usage` to publish for a `thread/tokenUsage/updated` of this run, or undefined when
   * the run's own usage did not grow (a repeat, a malformed frame, a reset thread).
   */
  update(params: unknown): ProviderEventInput | undefined {
    const threadTotal = threadTotalOf(params, this.#threadId);
    if (threadTotal === undefined) return undefined;
    this.#seenOwn = true;
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
   * An update of an earlier turn of this thread (codex replays the last one after
   * `thread/resume`, possibly while `turn/start` is pending): its total predates this run, so it
   * is the run's starting point unless the run already counted its own usage.
   */
  rebase(threadTotal: UsageTotals): void {
    if (this.#seenOwn) return;
    if (FIELDS.every((f) => threadTotal[f] >= this.#start[f])) this.#start = threadTotal;
  }
}
