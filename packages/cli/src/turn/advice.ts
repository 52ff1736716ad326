/**
 * What a person can do about a failed turn, and how codex's retries read while they happen.
 * Only bounded tokens are shown (provider codes, counts), never upstream prose.
 */
import type { JsonObject, RunTermination } from '@relvo-labs/agent-provider';
import { loginHint } from '../codex/login.js';

const USAGE_LIMIT_FIX =
  'the usage limit of the codex login is reached: wait until it resets or raise it in your account, or log in with an API key (`printenv OPENAI_API_KEY | codex login --with-api-key`)';

// codex reports no effort for this thread, so a per-turn one could not be put back afterwards
const NOT_RESTORABLE_FIX =
  "give the level with --effort (it is set for the thread too), or set model_reasoning_effort in the profile's codex config";

function adviceFor(providerCode: string | undefined, codexPath: string): string | undefined {
  if (providerCode === 'unauthorized') return `codex's login was refused: ${loginHint(codexPath)}`;
  if (providerCode === 'usage_limit') return USAGE_LIMIT_FIX;
  if (providerCode === 'run_option_not_restorable') return NOT_RESTORABLE_FIX;
  return undefined;
}

/** The fix for a failed turn, when there is one a person can apply. */
export function failureAdvice(termination: RunTermination, codexPath: string): string | undefined {
  if (termination.outcome !== 'failed') return undefined;
  const { providerCode, details } = termination.error;
  if (providerCode !== 'turn_stalled') return adviceFor(providerCode, codexPath);
  const cause = typeof details?.retryCause === 'string' ? details.retryCause : undefined;
  const retries = typeof details?.retries === 'number' ? details.retries : 0;
  if (cause === undefined) {
    return 'codex or its model sent nothing for the stall timeout; try again, and `relvo-codex doctor` checks codex and its login';
  }
  return (
    adviceFor(cause, codexPath) ??
    `codex retried the model request ${String(retries)} time(s) (${cause}) and got no answer: check the network and the login (\`relvo-codex doctor\`)`
  );
}

/** A mid-turn retry notice (`diagnostic` with `willRetry`), as one line; undefined otherwise. */
export function retryLine(detail: JsonObject | undefined): string | undefined {
  if (detail?.willRetry !== true) return undefined;
  const cause = typeof detail.providerCode === 'string' ? detail.providerCode : 'unknown';
  const retry = typeof detail.retry === 'number' ? ` — retry ${String(detail.retry)}` : '';
  return `codex: the model request failed (${cause}); retrying${retry}`;
}
