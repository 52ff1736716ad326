/**
 * `RuntimeSession.history`: one page of a profile's provider session's own history (the provider
 * must declare `session.history`), newest first, in the shapes of live turns. A read: nothing is
 * recorded, and it is allowed while a turn runs (the provider lists it `running`). It reaches
 * what the log may not hold: the turns of a thread a resumed session continued.
 */
import {
  canReadHistory,
  historyRequestSchema,
  isProviderRejection,
  type HistoryPage,
} from '@relvo-labs/agent-provider';
import { providerRefusal, RuntimeError } from '../errors.js';
import type { ProviderSessionPool } from './pool.js';

export interface HistoryOptions {
  /** The page before the one whose `nextCursor` this is; default: the newest turns. */
  readonly cursor?: string;
  /** Turns per page, 1–100; default: the provider's. */
  readonly limit?: number;
  /** Whose provider session; default: the session's. */
  readonly profile?: string;
}

export async function readProviderHistory(
  pool: ProviderSessionPool,
  profile: string,
  options: HistoryOptions,
): Promise<HistoryPage> {
  const { cursor, limit } = options;
  const request = historyRequestSchema.safeParse({
    ...(cursor === undefined ? {} : { cursor }),
    ...(limit === undefined ? {} : { limit }),
  });
  if (!request.success) {
    throw new RuntimeError('invalid_request', 'option_invalid', 'cursor or limit is invalid', {
      details: { option: request.error.issues[0]?.path.join('.') ?? 'history' },
    });
  }
  const entry = await pool.get(profile);
  const session = entry.session;
  if (!canReadHistory(entry.resolved.descriptor).ok || session.history === undefined) {
    throw new RuntimeError(
      'capability_unsupported',
      'history_unsupported',
      "the profile's provider cannot read a session's history",
      { details: { profile } },
    );
  }
  try {
    return await session.history(request.data);
  } catch (error) {
    if (isProviderRejection(error)) {
      throw providerRefusal(error, 'provider_rejected', 'the provider refused the history read', {
        profile,
      });
    }
    // a read: retrying it is harmless
    throw new RuntimeError(
      'provider_unavailable',
      'provider_unknown_outcome',
      'the history read failed; retry it',
      {
        cause: error,
      },
    );
  }
}
