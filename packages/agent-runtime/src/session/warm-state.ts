/**
 * What the warm set (ADR-0037) holds, per prewarmed profile, as a host reads it: the schema is
 * the one definition of the shape (the console's route and any metrics reader parse with it),
 * and `WarmPoolBook` keeps the part the live counts do not: failures and who is watching.
 */
import { AGENT_ERROR_CODES, isProviderRejection, toAgentError } from '@relvo-labs/agent-provider';
import { z } from 'zod';
import { isoAt, type RuntimeClock } from '../clock.js';
import { isRuntimeError, RUNTIME_ERROR_REASONS } from '../errors.js';

/** The last start that failed: a code and a bounded reason token, never the provider's prose. */
export const warmPoolErrorSchema = z.strictObject({
  code: z.enum(AGENT_ERROR_CODES),
  reason: z.enum(RUNTIME_ERROR_REASONS),
  at: z.iso.datetime(),
});

export const warmProfileStateSchema = z.strictObject({
  profile: z.string().min(1),
  /** `prewarm.count`: how many the set keeps ready or starting while the profile is in demand. */
  target: z.number().int().min(1),
  /** Started and not yet taken: the next sessions on the profile open without a spawn. */
  warm: z.number().int().nonnegative(),
  starting: z.number().int().nonnegative(),
  /** Starts that failed since the runtime was created (a counter: it never goes down). */
  failed: z.number().int().nonnegative(),
  lastError: warmPoolErrorSchema.nullable(),
});

/** Every prewarmed profile, in config order; empty when none prewarms. */
export const warmPoolStateSchema = z.strictObject({
  profiles: z.array(warmProfileStateSchema),
});

export type WarmPoolError = z.infer<typeof warmPoolErrorSchema>;
export type WarmProfileState = z.infer<typeof warmProfileStateSchema>;
export type WarmPoolState = z.infer<typeof warmPoolStateSchema>;
export type WarmPoolListener = (state: WarmPoolState) => void;

/** The reason token of a failed start: the runtime's own when it typed one, else by kind. */
function reasonOf(error: unknown): WarmPoolError['reason'] {
  if (isRuntimeError(error)) return error.reason;
  if (!isProviderRejection(error)) return 'provider_unknown_outcome';
  return error.agentError.code === 'invalid_request'
    ? 'session_options_refused'
    : 'provider_rejected';
}

export class WarmPoolBook {
  readonly #clock: RuntimeClock;
  readonly #failures = new Map<string, { count: number; last: WarmPoolError }>();
  readonly #listeners = new Set<WarmPoolListener>();

  constructor(clock: RuntimeClock) {
    this.#clock = clock;
  }

  failed(profile: string, error: unknown): void {
    const last: WarmPoolError = {
      code: toAgentError(error, 'provider_unavailable').code,
      reason: reasonOf(error),
      at: isoAt(this.#clock),
    };
    this.#failures.set(profile, { count: (this.#failures.get(profile)?.count ?? 0) + 1, last });
  }

  profileState(
    profile: string,
    counts: { target: number; warm: number; starting: number },
  ): WarmProfileState {
    const failure = this.#failures.get(profile);
    return {
      profile,
      ...counts,
      failed: failure?.count ?? 0,
      lastError: failure === undefined ? null : { ...failure.last },
    };
  }

  /** `listener` hears every change from now on, with the whole state; the result unsubscribes. */
  watch(listener: WarmPoolListener): () => void {
    const entry: WarmPoolListener = (state) => {
      listener(state);
    };
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Tells every watcher; one that throws neither stops the others nor the warm set. */
  publish(state: () => WarmPoolState): void {
    if (this.#listeners.size === 0) return;
    const now = state();
    for (const listener of [...this.#listeners]) {
      try {
        listener(structuredClone(now));
      } catch {
        // a watcher's fault is its own
      }
    }
  }
}
