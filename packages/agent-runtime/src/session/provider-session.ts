/**
 * What `createSession` resolved with, checked before the runtime keeps it: a provider that
 * resolves `null` or an object without the session's methods is refused, and nothing of it is
 * called later (where a TypeError would surface as an unhandled rejection).
 */
import type { ProviderSession } from '@relvo-labs/agent-provider';
import { RuntimeError } from '../errors.js';

const METHODS = ['startRun', 'respondToInteraction', 'dispose'] as const;

function hasMethods(value: unknown): value is ProviderSession {
  try {
    return (
      typeof value === 'object' &&
      value !== null &&
      METHODS.every((m) => typeof (value as Record<string, unknown>)[m] === 'function')
    );
  } catch {
    // a hostile proxy: not a session
    return false;
  }
}

/** The session, or a typed refusal after a best-effort dispose of what was returned. */
export function checkedProviderSession(value: unknown, profile: string): ProviderSession {
  if (hasMethods(value)) return value;
  try {
    const dispose = (value as { dispose?: unknown } | null)?.dispose;
    if (typeof dispose === 'function') {
      Promise.resolve(dispose.call(value)).catch(() => undefined);
    }
  } catch {
    // nothing more can be released
  }
  throw new RuntimeError(
    'provider_contract_violation',
    'provider_session_invalid',
    `profile "${profile}": the provider's createSession resolved with something that is not a session`,
    { details: { profile } },
  );
}
