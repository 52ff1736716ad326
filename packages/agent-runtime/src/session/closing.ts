import { toAgentError, type JsonObject, type ProviderSession } from '@relvo-labs/agent-provider';
import type { ResolvedProvider } from '../registry.js';
import { RuntimeError } from '../errors.js';
import type { RunDriver } from './run.js';

export interface ProviderSessionEntry {
  readonly resolved: ResolvedProvider;
  readonly session: ProviderSession;
  readonly sink: { stale: boolean };
  /** A dispose still in flight: a retried close awaits it again instead of calling it twice. */
  disposing?: Promise<void>;
}

/** A wait that gives up at the close deadline (`within` on the runtime clock). */
export type Grace = (work: Promise<unknown>) => Promise<{ readonly ok: boolean }>;

/**
 * Disposes every provider session, each wait bounded: one that fails or does not settle in
 * time stays in `entries` (a retried close disposes only what is left) and is reported.
 */
export async function disposeAll(
  entries: Map<string, ProviderSessionEntry>,
  grace: Grace,
): Promise<JsonObject[]> {
  const failures: JsonObject[] = [];
  for (const [profile, entry] of [...entries]) {
    try {
      entry.disposing ??= Promise.resolve().then(() => entry.session.dispose());
      if (!(await grace(entry.disposing)).ok) {
        failures.push({ phase: 'dispose', profile, code: 'provider_unavailable', timedOut: true });
        continue;
      }
      entry.sink.stale = true;
      entries.delete(profile);
    } catch (error) {
      delete entry.disposing;
      failures.push({
        phase: 'dispose',
        profile,
        code: toAgentError(error, 'provider_unavailable').code,
      });
    }
  }
  return failures;
}

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
