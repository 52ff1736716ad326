import {
  toAgentError,
  type ProviderRunTermination,
  type RunTermination,
} from '@relvo-labs/agent-provider';
import { isoAt, within, type RuntimeClock } from '../clock.js';
import type { SessionLog } from './log.js';

/** The run a turn settles with. */
export interface SettlingRun {
  readonly turnId: string;
  readonly runId: string;
  readonly profile: string;
}

export type TurnOutcome = 'completed' | 'failed' | 'cancelled';

const TURN_STATE_OF: Readonly<Record<ProviderRunTermination['outcome'], TurnOutcome>> = {
  succeeded: 'completed',
  failed: 'failed',
  interrupted: 'cancelled',
};

/** The termination a run records: the provider's, stamped with the runtime's time. */
export function storedTermination(termination: ProviderRunTermination, at: string): RunTermination {
  if (termination.outcome === 'failed') return { outcome: 'failed', at, error: termination.error };
  if (termination.outcome === 'succeeded') return { outcome: 'succeeded', at };
  return termination.reason === undefined
    ? { outcome: 'interrupted', at }
    : { outcome: 'interrupted', at, reason: termination.reason };
}

export interface TurnResult {
  readonly turnId: string;
  readonly runId: string;
  readonly profile: string;
  readonly turnState: TurnOutcome;
  readonly termination: RunTermination;
  /**
   * The sequence of the turn's `turn.settled` envelope: nothing of this turn comes after it. When
   * the store failed before it was durable: the last stored sequence (and `turnState` is `failed`).
   */
  readonly lastSequence: number;
}

/** Appends `run.finished` and `turn.settled` of a run that ended; the result `done` reports. */
export function recordSettlement(
  log: SessionLog,
  run: SettlingRun,
  termination: ProviderRunTermination,
): TurnResult {
  const { turnId, runId, profile } = run;
  const stored = storedTermination(termination, log.stamp());
  log.append({ type: 'run.finished', termination: stored }, runId);
  const turnState = TURN_STATE_OF[termination.outcome];
  const settled = log.append(
    termination.outcome === 'failed'
      ? { type: 'turn.settled', turnId, state: turnState, error: termination.error }
      : { type: 'turn.settled', turnId, state: turnState },
    runId,
  );
  return { turnId, runId, profile, turnState, termination: stored, lastSequence: settled.sequence };
}

/**
 * How long `done` waits for a live subscriber to be handed the turn's last envelope. A reader
 * that stopped reading without closing its subscription must not hold the turn forever.
 */
export const DELIVERY_WAIT_MS = 5_000;

/**
 * The result `done` reports, once the settling envelope is durable and live subscribers have
 * been handed it: a host that stops reading on `done` has seen the whole turn.
 */
export async function reportTurn(
  log: SessionLog,
  clock: RuntimeClock,
  result: TurnResult,
): Promise<TurnResult> {
  try {
    await log.durable();
  } catch (error) {
    // the log does not hold this turn's settlement: never report an outcome it does not say
    return {
      ...result,
      turnState: 'failed',
      termination: { outcome: 'failed', at: isoAt(clock), error: toAgentError(error) },
      lastSequence: log.committedSequence,
    };
  }
  // no live reader behind: no deadline (a timer and a race per turn) to wait on
  if (log.undelivered(result.lastSequence))
    await within(clock, DELIVERY_WAIT_MS, log.delivered(result.lastSequence));
  return result;
}
