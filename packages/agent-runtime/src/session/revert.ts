/**
 * `RuntimeSession.revert`: the last turns of one profile's provider session taken back. Checked
 * first (the argument, the provider's `session.revert`), recorded under the lease before the
 * provider hears of it (ADR-0046), the outcome recorded after. The caller guards against a run
 * or an admission in flight (session.ts).
 */
import {
  canRevertSession,
  isProviderRejection,
  revertRequestSchema,
  type RevertResult,
} from '@relvo-labs/agent-provider';
import { providerRefusal, RuntimeError } from '../errors.js';
import type { SessionLog } from './log.js';
import type { ProviderSessionPool } from './pool.js';

export interface RevertOptions {
  /** How many of the latest turns to take back (1 = undo the last turn). */
  readonly turns: number;
  /** Whose provider session; default: the session's. */
  readonly profile?: string;
}

export function checkedRevert(options: RevertOptions): { turns: number } {
  const parsed = revertRequestSchema.safeParse({ turns: options.turns });
  if (!parsed.success) {
    throw new RuntimeError(
      'invalid_request',
      'option_invalid',
      'turns must be a whole number from 1',
      {
        details: { option: 'turns' },
      },
    );
  }
  return parsed.data;
}

export async function revertProvider(
  pool: ProviderSessionPool,
  log: SessionLog,
  profile: string,
  request: { turns: number },
): Promise<RevertResult> {
  const entry = await pool.get(profile);
  const session = entry.session;
  if (!canRevertSession(entry.resolved.descriptor).ok || session.revert === undefined) {
    throw new RuntimeError(
      'capability_unsupported',
      'revert_unsupported',
      "the profile's provider cannot revert a session",
      { details: { profile } },
    );
  }
  log.append({ type: 'session.revert_requested', turns: request.turns, profile });
  await log.durable();
  let result: RevertResult;
  try {
    result = await session.revert({ turns: request.turns });
  } catch (error) {
    if (isProviderRejection(error)) {
      throw providerRefusal(error, 'provider_rejected', 'the provider refused the revert', {
        profile,
      });
    }
    // never retried for the host: a second revert would take back more turns
    throw new RuntimeError(
      'provider_unavailable',
      'provider_unknown_outcome',
      'the revert outcome is unknown; read the history before reverting again',
      { cause: error },
    );
  }
  log.append({ type: 'session.reverted', turns: request.turns, profile, files: result.files });
  // the provider's record names the thread's last turn: a later resume must know the new one
  await pool.refreshRecord(profile, session);
  await log.durable();
  return result;
}
