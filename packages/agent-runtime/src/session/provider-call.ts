import { isProviderRejection } from '@relvo-labs/agent-provider';
import { providerRefusal, RuntimeError } from '../errors.js';

/**
 * What a provider call that threw means to the host: a definite refusal stays a typed refusal;
 * anything else is an unknown outcome the host may retry with the same request (a steer or an
 * injection is the exception: a retry could add its input twice, so the host decides).
 */
export function providerCallError(
  error: unknown,
  what: 'response' | 'interrupt' | 'steer' | 'context injection',
): RuntimeError {
  if (isProviderRejection(error)) {
    return providerRefusal(error, 'provider_rejected', `the provider refused the ${what}`, {});
  }
  return new RuntimeError(
    'provider_unavailable',
    'provider_unknown_outcome',
    what === 'steer' || what === 'context injection'
      ? `the ${what} outcome is unknown`
      : `the ${what} outcome is unknown; retry it`,
    { cause: error },
  );
}
