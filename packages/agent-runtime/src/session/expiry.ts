import {
  agentError,
  type AgentError,
  type InteractionRequest,
  type InteractionResponse,
} from '@relvo-labs/agent-provider';
import { startTimer, type RuntimeClock } from '../clock.js';
import type { RuntimeProfile } from '../config.js';
import type { InteractionRecord } from './run-context.js';
import type { RunDriver } from './run.js';

/** A profile's `interactionExpiry`: how long a request may wait for a person, then what. */
export type ExpiryPolicy = NonNullable<RuntimeProfile['interactionExpiry']>;

/** What the runtime did about an expired request. */
export type ExpiryAction = 'declined' | 'cancelled';

export interface ArmedExpiry {
  /** ISO time the request expires at (recorded in `interaction.requested`). */
  readonly expiresAt: string;
  cancel(): void;
}

/** Starts the deadline of one request on the runtime clock. */
export function armExpiry(
  clock: RuntimeClock,
  policy: ExpiryPolicy,
  onExpired: () => void,
): ArmedExpiry {
  const expiresAt = new Date(clock.now() + policy.afterMs).toISOString();
  return { expiresAt, cancel: startTimer(clock, policy.afterMs, onExpired) };
}

/**
 * The answer the provider gets when a request expires: a denial for an approval under
 * `decline`; otherwise none (the run is interrupted instead — a question has no refusal).
 */
export function expiryAnswer(
  policy: ExpiryPolicy,
  request: InteractionRequest,
): InteractionResponse | undefined {
  if (policy.onExpiry !== 'decline' || request.kind !== 'approval') return undefined;
  return { kind: 'approval', decision: 'denied' };
}

/** The settlement error of an expired request: its own code and a bounded reason. */
export function expiredError(action: ExpiryAction, afterMs: number): AgentError {
  return agentError('interaction_expired', 'nobody answered before the interaction expired', {
    details: { reason: 'interaction_expired', action, afterMs },
  });
}

/**
 * A request nobody answered in time: settled `expired`, then the provider gets a denial
 * (`decline`, approvals) or the run is interrupted. An answer already in flight wins.
 */
export function expireInteraction(
  run: RunDriver,
  record: InteractionRecord,
  policy: ExpiryPolicy,
): void {
  if (record.status === 'delivering') {
    // the answer in flight wins; should it fail, the request is still overdue
    record.delivery?.catch(() => {
      expireInteraction(run, record, policy);
    });
    return;
  }
  if (run.finished || record.status !== 'pending') return;
  const answer = expiryAnswer(policy, record.request);
  const action = answer === undefined ? 'cancelled' : 'declined';
  run.settle(record, 'expired', undefined, expiredError(action, policy.afterMs));
  const stop = (): void => {
    run.interrupt('interaction expired').catch(() => undefined);
  };
  if (answer === undefined) {
    stop();
    return;
  }
  // a provider that refuses the denial would keep waiting for it: interrupt instead
  Promise.resolve()
    .then(() => run.providerSession.respondToInteraction(record.providerRef, answer))
    .catch(stop);
}
