/**
 * `-c` overrides and a sealed environment that point a real codex at the scripted model
 * server and keep it on 127.0.0.1 (docs/testing.md §3).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SCRIPTED_PROVIDER = 'scripted';
export const SCRIPTED_MODEL = 'scripted-model';
/** The reasoning effort `codexConfigArgs` gives a thread unless told otherwise. */
export const DEFAULT_REASONING_EFFORT = 'medium';

export interface CodexConfigArgsOptions {
  /** e.g. `http://127.0.0.1:PORT/v1` (ScriptedModelServer.baseUrl). */
  readonly baseUrl: string;
  /** Only for stall tests; codex's default is 300000. */
  readonly streamIdleTimeoutMs?: number;
  /**
   * The thread's default reasoning effort (`model_reasoning_effort`), default `'medium'`. codex
   * reports no effort for the scripted model's unknown slug otherwise, and a run's `effort` is then
   * refused (`run_option_not_restorable`: nothing to put back). `null` leaves it unset, for a test
   * of exactly that refusal. An `extra` `model_reasoning_effort` wins over it.
   */
  readonly reasoningEffort?: string | null;
  /** Extra `key=value` overrides, each passed after its own `-c`. */
  readonly extra?: readonly string[];
}

// TOML basic strings accept JSON's escaping for the characters we ever pass.
const tomlString = (value: string): string => JSON.stringify(value);

/**
 * The argv pieces (`-c`, `k=v`, …) to put before the subcommand. They set a default reasoning
 * effort (see `reasoningEffort`), so a per-run `effort` can be undone and is not refused.
 */
export function codexConfigArgs(options: CodexConfigArgsOptions): string[] {
  if (!/^http:\/\/127\.0\.0\.1:\d+(\/|$)/.test(options.baseUrl)) {
    throw new Error('codexConfigArgs: baseUrl must be http://127.0.0.1:<port>/…');
  }
  const p = `model_providers.${SCRIPTED_PROVIDER}`;
  const pairs = [
    `model_provider=${tomlString(SCRIPTED_PROVIDER)}`,
    // An unknown slug keeps the classic request body and tool list.
    `model=${tomlString(SCRIPTED_MODEL)}`,
    // Without a name codex refuses to start.
    `${p}.name=${tomlString(SCRIPTED_PROVIDER)}`,
    `${p}.base_url=${tomlString(options.baseUrl)}`,
    `${p}.wire_api="responses"`,
    `${p}.requires_openai_auth=false`,
    `${p}.supports_websockets=false`,
    `${p}.request_max_retries=0`,
    `${p}.stream_max_retries=0`,
    ...(options.streamIdleTimeoutMs === undefined
      ? []
      : [`${p}.stream_idle_timeout_ms=${options.streamIdleTimeoutMs}`]),
    // plugins=false is what stops the start-up network sync; the others are belt and braces.
    'features.plugins=false',
    'features.apps=false',
    'analytics.enabled=false',
    ...(options.reasoningEffort === null
      ? []
      : [
          `model_reasoning_effort=${tomlString(options.reasoningEffort ?? DEFAULT_REASONING_EFFORT)}`,
        ]),
    ...(options.extra ?? []),
  ];
  return pairs.flatMap((pair) => ['-c', pair]);
}

const EXACT_STRIPPED = new Set([
  'OPENAI_API_KEY',
  'CODEX_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_ORG_ID',
  'OPENAI_ORGANIZATION',
  'OPENAI_PROJECT',
  'OPENAI_PROJECT_ID',
  'AZURE_OPENAI_API_KEY',
  'CODEX_HOME',
  'CODEX_MANAGED_BY_NPM',
  'CODEX_MANAGED_PACKAGE_ROOT',
  'CODEX_SANDBOX',
  'CODEX_SANDBOX_NETWORK_DISABLED',
  'SSL_CERT_FILE',
  'CODEX_CA_CERTIFICATE',
]);

/** True for variables that could carry credentials or send traffic somewhere else. */
export function isStrippedEnvVar(name: string): boolean {
  const upper = name.toUpperCase();
  return (
    EXACT_STRIPPED.has(upper) ||
    upper.endsWith('_PROXY') ||
    upper.endsWith('_API_KEY') ||
    upper.endsWith('_ACCESS_TOKEN') ||
    upper.startsWith('OPENAI_')
  );
}

export interface IsolatedCodexHome {
  /** The temp root holding everything below; `dispose()` removes it. */
  readonly root: string;
  readonly home: string;
  readonly codexHome: string;
  /** An empty directory to use as the app-server's cwd. */
  readonly workspace: string;
  /** `base` without credential/proxy variables, with HOME and CODEX_HOME pointing here. */
  env(base?: NodeJS.ProcessEnv, extra?: Readonly<Record<string, string>>): Record<string, string>;
  dispose(): void;
}

/** A fresh HOME, CODEX_HOME (inside HOME, so the placeholders stay distinct) and workspace. */
export function createIsolatedCodexHome(prefix = 'relvo-codex-'): IsolatedCodexHome {
  // realpath: codex reports canonical paths, and sanitizing must match them exactly.
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const home = join(root, 'home');
  const codexHome = join(home, '.codex');
  const workspace = join(root, 'workspace');
  for (const dir of [home, codexHome, workspace]) mkdirSync(dir, { recursive: true });
  return {
    root,
    home,
    codexHome,
    workspace,
    env(base = process.env, extra = {}) {
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(base))
        if (v !== undefined && !isStrippedEnvVar(k)) env[k] = v;
      return { ...env, HOME: home, CODEX_HOME: codexHome, ...extra };
    },
    dispose() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
