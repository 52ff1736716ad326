import {
  agentError,
  type AgentError,
  type InteractionRequest,
  type InteractionResponse,
  type ProviderSession,
} from '@relvo-labs/agent-provider';
import { startTimer, type RuntimeClock } from '../clock.js';
import type { RuntimeProfile } from '../config.js';

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
 * `decline`, a failure for a host tool's call; otherwise none (the run is interrupted instead —
 * a question has no refusal).
 */
export function expiryAnswer(
  policy: ExpiryPolicy,
  request: InteractionRequest,
): InteractionResponse | undefined {
  if (policy.onExpiry !== 'decline') return undefined;
  // a host tool's call fails, and the model is told it expired
  if (request.kind === 'tool_call')
    return { kind: 'tool_call', output: { type: 'failure', code: 'expired' } };
  if (request.kind !== 'approval') return undefined;
  return { kind: 'approval', decision: 'denied' };
}

/** The settlement error of an expired request: its own code and a bounded reason. */
export function expiredError(action: ExpiryAction, afterMs: number): AgentError {
  return agentError('interaction_expired', 'nobody answered before the interaction expired', {
    details: { reason: 'interaction_expired', action, afterMs },
  });
}

/** What an expiry hands the run: its provider session and its interrupt. */
export interface ExpiringRun {
  readonly providerSession: ProviderSession;
  interrupt(reason?: string): Promise<void>;
}

/**
 * After a request expired: the provider gets the denial, or (no denial, or a provider that
 * refuses it and would keep waiting) the run is interrupted.
 */
export function handOffExpiry(
  run: ExpiringRun,
  providerRef: string,
  answer: InteractionResponse | undefined,
): void {
  const stop = (): void => {
    run.interrupt('interaction expired').catch(() => undefined);
  };
  if (answer === undefined) {
    stop();
    return;
  }
  Promise.resolve()
    .then(() => run.providerSession.respondToInteraction(providerRef, answer))
    .catch(stop);
}
