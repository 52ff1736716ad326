/**
 * Which run owns an interaction request (docs/behaviour.md §9.4 step 2), decided from one
 * snapshot of the session: the first failing condition names the refusal.
 */
import type { InteractionCorrelation } from '../interactions/native-approval.js';
import type { OwnerResolution } from '../interactions/registry.js';
import type { CodexRun } from './run.js';
import type { SessionSnapshot } from './state.js';

export function resolveInteractionOwner(
  session: SessionSnapshot,
  correlation: InteractionCorrelation,
): OwnerResolution<CodexRun> {
  if (session.closing) return { ok: false, reason: 'session_closing' };
  if (session.fenced) return { ok: false, reason: 'session_fenced' };
  const run = session.run;
  if (run === undefined) return { ok: false, reason: 'no_active_run' };
  if (run.settled) return { ok: false, reason: 'run_concluded' };
  if (run.interactionsFenced) return { ok: false, reason: 'run_interrupting' };
  if (run.turnId === undefined) return { ok: false, reason: 'run_not_bound' };
  if (correlation.threadId !== session.threadId || correlation.turnId !== run.turnId) {
    return { ok: false, reason: 'correlation_mismatch' };
  }
  return { ok: true, owner: run };
}
