import { toAgentError } from '@relvo-labs/agent-provider';
import { RuntimeError } from '../errors.js';
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
