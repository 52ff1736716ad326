/** The CLI from its sources in a tmux terminal, started in the repository root. */
import { cliArgv, REPO_ROOT } from './cli.js';
import { openTerminal, type Terminal } from './tmux.js';

export function openCliTerminal(
  args: readonly string[],
  env: Record<string, string>,
): Promise<Terminal> {
  return openTerminal([process.execPath, ...cliArgv(args)], env, { cwd: REPO_ROOT });
}
