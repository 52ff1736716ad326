/**
 * What environment codex and the commands it runs receive (docs/adr/ADR-0013). The app-server
 * gets an allowlist of the host's environment; the commands the model runs get codex's
 * environment without secret-shaped names. Both are pure functions of their inputs.
 */

/** Variables codex needs to run, find its home and configuration, reach the network and log in. */
export const CODEX_INHERITED_ENV = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'CODEX_HOME',
  'CODEX_API_KEY',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'CODEX_CA_CERTIFICATE',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'ALL_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'all_proxy',
  'no_proxy',
  // the owner marker of every process the transport starts (ADR-0006)
  'RELVO_CODEX_OWNER',
] as const;

/** Prefixes inherited as a family: locale categories and the XDG base directories. */
export const CODEX_INHERITED_ENV_PREFIXES = ['LC_', 'XDG_'] as const;

/** Names a command never receives by default (case-insensitive globs, codex's syntax). */
export const COMMAND_ENV_EXCLUDES = [
  '*KEY*',
  '*SECRET*',
  '*TOKEN*',
  '*PASSWORD*',
  '*PASSWD*',
  '*CREDENTIAL*',
] as const;

export const COMMAND_ENVIRONMENTS = ['filtered', 'inherit'] as const;
export type CommandEnvironment = (typeof COMMAND_ENVIRONMENTS)[number];

/** The app-server's environment when the host does not pass `env`: the allowlist plus `extra`. */
export function inheritedEnvironment(
  source: Readonly<Record<string, string | undefined>>,
  extra: readonly string[] = [],
): Record<string, string> {
  const names = new Set<string>([...CODEX_INHERITED_ENV, ...extra]);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (names.has(name) || CODEX_INHERITED_ENV_PREFIXES.some((p) => name.startsWith(p))) {
      env[name] = value;
    }
  }
  return env;
}

/**
 * `-c` overrides that make codex honour its `shell_environment_policy` (the shell snapshot
 * would otherwise re-export everything) and drop secret-shaped names from every command.
 */
export function commandEnvironmentArgs(policy: CommandEnvironment): string[] {
  if (policy === 'inherit') return [];
  const excludes = `[${COMMAND_ENV_EXCLUDES.map((p) => JSON.stringify(p)).join(',')}]`;
  return [
    '-c',
    'features.shell_snapshot=false',
    '-c',
    'shell_environment_policy.ignore_default_excludes=false',
    '-c',
    `shell_environment_policy.exclude=${excludes}`,
  ];
}
