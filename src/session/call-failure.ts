/**
 * What a failed `turn/interrupt`, `turn/steer` or `thread/revert` call means to a host: a refusal proves nothing
 * was applied and is thrown as it is; anything else may still apply, and becomes an unknown
 * outcome with a bounded cause token and none of codex's prose.
 */
import { AgentRuntimeError, isProviderRejection } from '@relvo-labs/agent-provider';
import { isProviderCode } from '../protocol/provider-codes.js';
import { agentErrorOf } from '../rpc/errors.js';
import { causeTokenOf } from '../shared/cause-token.js';
import { codexError } from '../shared/codex-error.js';

/** A refusal proves nothing was applied; anything else may still apply (docs/spi.md §15). */
export function callFailure(
  what: 'interrupt' | 'steer' | 'context injection' | 'revert',
  error: unknown,
): never {
  if (isProviderRejection(error)) throw error;
  const known = agentErrorOf(error);
  if (known !== undefined) {
    throw new AgentRuntimeError(
      codexError(
        known.code,
        `codex did not answer the ${what} (${known.providerCode ?? known.code})`,
        { ...(isProviderCode(known.providerCode) ? { providerCode: known.providerCode } : {}) },
      ),
      { cause: error },
    );
  }
  const token = causeTokenOf(error);
  throw new AgentRuntimeError(
    codexError('provider_unavailable', `codex ${what} failed (${token})`, {
      details: { cause: token },
    }),
    { cause: error },
  );
}
