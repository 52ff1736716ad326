/**
 * A session's owner and live state as the console shows them, for every session in the log
 * whichever process writes it: the owner from the store's leases (`runtime.sessionOwners`), the
 * rest from the log digest — never from whether this process happens to have it open.
 */
import type { StoredSession } from '@relvo-labs/agent-runtime';
import type { SessionDigestView } from './digest.js';

/** Who holds the session's lease: this process, another process or host, or nobody. */
export const SESSION_OWNERS = ['this_runtime', 'elsewhere', 'none'] as const;
export type SessionOwner = (typeof SESSION_OWNERS)[number];

/**
 * - `waiting`: an owner holds it and the log shows an interaction waiting for an answer;
 * - `running`: an owner holds it and the log shows a run started and not finished;
 * - `idle`: open, nothing running (with no owner, the next command takes it over);
 * - `stalled`: the log shows open work but no process holds the lease (its owner ended); the
 *   next command takes it over and the takeover settles that work;
 * - `closed` / `failed`: the session ended.
 */
export const LIVE_STATES = ['running', 'waiting', 'idle', 'stalled', 'closed', 'failed'] as const;
export type LiveState = (typeof LIVE_STATES)[number];

/** What a waiting session waits for, by its oldest pending interaction. */
export const WAITING_FOR = ['approval', 'answer'] as const;
export type WaitingFor = (typeof WAITING_FOR)[number];

export function waitingFor(
  view: Pick<SessionDigestView, 'pendingInteractions'>,
): WaitingFor | undefined {
  const oldest = view.pendingInteractions[0];
  if (oldest === undefined) return undefined;
  return oldest.request.kind === 'approval' ? 'approval' : 'answer';
}

export function liveStateOf(
  stored: Pick<StoredSession, 'state'>,
  owner: SessionOwner,
  view: Pick<SessionDigestView, 'closedAt' | 'pendingInteractions' | 'openRunIds'>,
): LiveState {
  if (stored.state === 'failed') return 'failed';
  if (stored.state === 'closed' || view.closedAt !== undefined) return 'closed';
  const waiting = view.pendingInteractions.length > 0;
  const running = view.openRunIds.length > 0;
  if (owner === 'none') return waiting || running ? 'stalled' : 'idle';
  if (waiting) return 'waiting';
  return running ? 'running' : 'idle';
}
