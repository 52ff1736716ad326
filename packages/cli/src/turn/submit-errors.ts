/**
 * A turn the runtime refused before it started: the profile's options, the provider, or the
 * codex version. Each becomes a one-line message and the exit code a person can act on.
 */
import { isProviderRejection } from '@relvo-labs/agent-provider';
import { isConfigRefusal, isRuntimeError, type RuntimeError } from '@relvo-labs/agent-runtime';
import { installHint } from '../codex/version.js';
import { CliExit, EXIT } from '../exit-codes.js';

/**
 * The runtime refusals a person fixes in the command line or the config: the runtime's config
 * refusals, plus a config file it could not read (which the runtime does not count as a refusal
 * of what the host wrote, but which is the same usage error here as at load time).
 */
function isUsageRefusal(error: RuntimeError): boolean {
  return error.reason === 'config_unreadable' || isConfigRefusal(error);
}

function providerCodeOf(error: unknown): string | undefined {
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && cause !== undefined; depth++) {
    if (isProviderRejection(cause)) return cause.agentError.providerCode;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return undefined;
}

export function submitErrorToExit(error: unknown): CliExit {
  if (error instanceof CliExit) return error;
  if (providerCodeOf(error) === 'unsupported_app_server_version') {
    return new CliExit(
      EXIT.codex,
      `codex refused: its version is outside the reviewed window; install one: ${installHint()}`,
    );
  }
  if (isRuntimeError(error)) {
    const details = error.error.details ?? {};
    const where = [details.profile, details.path].filter((x) => typeof x === 'string').join(' ');
    const detail = `${error.error.message}${where === '' ? '' : ` (${where})`} [${error.reason}]`;
    if (isUsageRefusal(error)) {
      const profile = typeof details.profile === 'string' ? ` "${details.profile}"` : '';
      return new CliExit(
        EXIT.usage,
        `the host config's profile${profile} was refused; fix it in the config file (--verbose shows which key)`,
        detail,
      );
    }
    return new CliExit(
      EXIT.failed,
      `${error.error.message}; run again with --verbose for details`,
      detail,
    );
  }
  return new CliExit(
    EXIT.failed,
    error instanceof Error ? error.message : 'the turn could not start',
  );
}
