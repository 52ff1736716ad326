/**
 * Tokens per turn: a run's `run.usage` reports its total so far (the latest one counts), and a
 * turn's usage is the sum over its runs (a retried turn has several). Drawn on the line that
 * says how the turn ended.
 */
import { el, isRecord } from './dom.js';

const KEYS = ['inputTokens', 'outputTokens', 'totalTokens'] as const;
type Usage = Partial<Record<(typeof KEYS)[number], number>>;

export class TurnUsage {
  readonly #turnOf = new Map<string, string>();
  readonly #latest = new Map<string, Usage>();

  started(runId: string | undefined, turnId: unknown): void {
    if (runId !== undefined && typeof turnId === 'string') this.#turnOf.set(runId, turnId);
  }

  reported(runId: string | undefined, usage: unknown): void {
    if (runId === undefined || !isRecord(usage)) return;
    const kept: Usage = {};
    for (const key of KEYS) {
      const n = usage[key];
      if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) kept[key] = n;
    }
    this.#latest.set(runId, kept);
  }

  /** `tokens: 5 in · 1 out · 6 total` for the turn's runs, or undefined when none reported. */
  text(turnId: unknown): string | undefined {
    const sum: Usage = {};
    let any = false;
    for (const [runId, usage] of this.#latest) {
      if (this.#turnOf.get(runId) !== turnId) continue;
      any = true;
      for (const key of KEYS) if (usage[key] !== undefined) sum[key] = (sum[key] ?? 0) + usage[key];
    }
    if (!any) return undefined;
    const parts = [
      ...(sum.inputTokens === undefined ? [] : [`${String(sum.inputTokens)} in`]),
      ...(sum.outputTokens === undefined ? [] : [`${String(sum.outputTokens)} out`]),
      ...(sum.totalTokens === undefined ? [] : [`${String(sum.totalTokens)} total`]),
    ];
    return `tokens: ${parts.join(' · ') || 'none reported'}`;
  }

  /** The turn's usage as a part of its closing line, if any was reported. */
  part(turnId: unknown): HTMLElement[] {
    const text = this.text(turnId);
    return text === undefined ? [] : [el('span', 'usage', ` · ${text}`)];
  }
}
