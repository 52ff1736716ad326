/** The check `demo` and `run` make before starting anything: a codex, inside the window. */
import { CliExit, EXIT } from '../exit-codes.js';
import { CODEX_EXECUTABLE_ENV, findCodex, type LocatedCodex } from './locate.js';
import { describeProbeFailure, installHint, isInWindow, probeCodexVersion } from './version.js';

export async function requireReviewedCodex(
  option: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<LocatedCodex & { readonly version: string }> {
  const located = findCodex({ option, env });
  if (!located.found) {
    throw new CliExit(
      EXIT.codex,
      located.source === 'pinned'
        ? `the pinned @openai/codex is not installed (${located.reason}): run \`npm ci\``
        : `${located.source === 'option' ? '--codex' : CODEX_EXECUTABLE_ENV} does not name an executable: ${located.requested ?? ''}`,
    );
  }
  const probe = await probeCodexVersion(located.path, env);
  if (!probe.ok) {
    throw new CliExit(
      EXIT.codex,
      `${describeProbeFailure(located.path, probe.reason)} Install a reviewed codex: ${installHint()}`,
    );
  }
  if (!isInWindow(probe.version)) {
    throw new CliExit(
      EXIT.codex,
      `codex ${probe.version} (${located.path}) is outside the reviewed window; install one: ${installHint()} (see \`relvo-codex doctor\`)`,
    );
  }
  return { ...located, version: probe.version };
}
