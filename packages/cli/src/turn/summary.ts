/** The few lines a person reads after a turn: outcome, usage, timings. */
import type { RunTermination } from '@relvo-labs/agent-provider';
import { neutraliseLine } from '../ui/neutralise.js';
import type { Output } from '../ui/output.js';
import type { TurnStats } from './driver.js';

export interface Timings {
  /** submit → the provider session is ready and the turn started (spawn + handshake on first use). */
  readonly spawnToReadyMs: number | null;
  /** turn start → first streamed text. */
  readonly turnStartToFirstDeltaMs: number | null;
  /** command start → run finished. */
  readonly totalMs: number | null;
}

export function timingsOf(stats: TurnStats, commandStartedAt: number): Timings {
  const ms = (from: number | undefined, to: number | undefined): number | null =>
    from === undefined || to === undefined ? null : Math.round(to - from);
  return {
    spawnToReadyMs: ms(stats.submittedAt, stats.readyAt),
    turnStartToFirstDeltaMs: ms(stats.readyAt, stats.firstDeltaAt),
    totalMs: ms(commandStartedAt, stats.finishedAt),
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
}
