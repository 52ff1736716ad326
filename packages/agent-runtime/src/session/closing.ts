import { toAgentError } from '@relvo-labs/agent-provider';
import { RuntimeError } from '../errors.js';
import type { ProviderSessionPool } from './pool.js';
import type { RunDriver } from './run.js';

/** A wait that gives up at the close deadline (`within` on the runtime clock). */
export type Grace = (work: Promise<unknown>) => Promise<{ readonly ok: boolean }>;

/** A run the provider still has not settled after dispose is recorded failed (bounded wait). */
export async function settleAfterDispose(run: RunDriver, grace: Grace): Promise<void> {
  if ((await grace(run.done)).ok) return;
  run.finish(
    {
      outcome: 'failed',
      error: toAgentError(
        new RuntimeError(
          'provider_contract_violation',
          'provider_rejected',
          'the provider did not settle the run after dispose',
        ),
      ),
    },
    false,
  );
}

/**
 * After the session's log failed for good (the store refused it, or this runtime lost the
 * session's lease) nothing a provider does could be recorded: every provider session is disposed
 * at once and a run in flight settled as after close, each wait bounded. Never throws; a later
 * close finds nothing left to dispose.
 */
export async function stopAfterFailure(
  pool: ProviderSessionPool,
  run: RunDriver | undefined,
  grace: Grace,
): Promise<void> {
  await pool.disposeAll(grace).catch(() => undefined);
  if (run !== undefined && !run.finished) await settleAfterDispose(run, grace).catch(() => 0);
}
