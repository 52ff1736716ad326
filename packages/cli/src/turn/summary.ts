/** The few lines a person reads after a turn: outcome, usage, timings. */
import type { RunTermination } from '@relvo-labs/agent-provider';
import { neutraliseLine } from '../ui/neutralise.js';
import type { Output } from '../ui/output.js';
import type { TurnStats } from './turn-stats.js';

export interface Timings {
  /** submit → the provider session is ready and the turn started (spawn + handshake on first use). */
  readonly spawnToReadyMs: number | null;
  /** turn start → first streamed text. */
  readonly turnStartToFirstDeltaMs: number | null;
  /** command start → run finished. */
  readonly totalMs: number | null;
  /** How long a person took to answer; left out of the two timings above. */
  readonly waitingMs: number;
}

export function timingsOf(stats: TurnStats, commandStartedAt: number): Timings {
  const ms = (from: number | undefined, to: number | undefined): number | null =>
    from === undefined || to === undefined ? null : Math.round(to - from);
  const less = (v: number | null, waited: number): number | null =>
    v === null ? null : Math.max(0, v - Math.round(waited));
  return {
    spawnToReadyMs: ms(stats.submittedAt, stats.readyAt),
    turnStartToFirstDeltaMs: less(
      ms(stats.readyAt, stats.firstDeltaAt),
      stats.waitingBeforeFirstDeltaMs ?? 0,
    ),
    totalMs: less(ms(commandStartedAt, stats.finishedAt), stats.waitingMs),
    waitingMs: Math.round(stats.waitingMs),
  };
}

export function describeTermination(termination: RunTermination): string {
  switch (termination.outcome) {
    case 'succeeded':
      return 'succeeded';
    case 'interrupted':
      return 'interrupted';
    case 'failed':
      return `failed: ${termination.error.code} (${neutraliseLine(termination.error.message)})`;
  }
}

export function printTurnSummary(
  out: Output,
  termination: RunTermination,
  stats: TurnStats,
  timings: Timings,
): void {
  const { c } = out;
  const outcome = describeTermination(termination);
  const colour =
    termination.outcome === 'succeeded'
      ? c.green
      : termination.outcome === 'failed'
        ? c.red
        : c.yellow;
  out.note('');
  out.note(`${c.bold('turn')}     ${colour(outcome)}`);
  out.note(
    `${c.bold('tokens')}   ${stats.usage.inputTokens} in, ${stats.usage.outputTokens} out, ${stats.usage.totalTokens} total`,
  );
  const fmt = (v: number | null): string => (v === null ? '—' : `${v} ms`);
  out.note(
    `${c.bold('timings')}  spawn→ready ${fmt(timings.spawnToReadyMs)} · turn start→first text ${fmt(timings.turnStartToFirstDeltaMs)} · total ${fmt(timings.totalMs)}`,
  );
  if (timings.waitingMs > 0) {
    out.note(
      `${' '.repeat(9)}${c.dim(`not counted: ${fmt(timings.waitingMs)} waiting for your answer`)}`,
    );
  }
}
