/** What a call refused with, for tests that assert on the refusal itself. */
import { isProviderRejection, type AgentError } from '@relvo-labs/agent-provider';

/** The AgentError a provider call rejected with; a resolve or any other error fails the test. */
export async function refusal(promise: Promise<unknown>): Promise<AgentError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!isProviderRejection(outcome)) throw new Error('expected a ProviderRejection');
  return outcome.agentError;
}

/** What `fn` threw; returning normally fails the test. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
