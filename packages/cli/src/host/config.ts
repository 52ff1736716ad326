/**
 * The host config `run` uses: `--config FILE`, else `./relvo.config.json` when present, else a
 * built-in config. The file format is the runtime's (`loadRuntimeConfig`); `--sandbox` and
 * `--approvals` override the chosen codex profile's provider options for this run only.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  isRuntimeError,
  loadRuntimeConfig,
  parseRuntimeConfig,
  type RuntimeConfig,
  type RuntimeConfigInput,
} from '@relvo-labs/agent-runtime';
import { CliExit, EXIT } from '../exit-codes.js';
import { DEFAULT_CONFIG_FILE } from '../paths.js';

// toolActivity 'redacted' (ADR-0014): the commands codex runs are shown, never their output
export const BUILT_IN_CONFIG: RuntimeConfigInput = {
  defaultProfile: 'codex-readonly',
  profiles: {
    'codex-readonly': {
      provider: 'codex',
      description: 'read-only sandbox; codex asks before anything else and you answer here',
      providerOptions: {
        sandboxMode: 'read-only',
        approvals: 'bridge',
        questions: 'bridge',
        toolActivity: 'redacted',
      },
    },
    'codex-workspace-write-with-approvals': {
      provider: 'codex',
      description: 'codex may write in the workspace; anything beyond asks you first',
      providerOptions: {
        sandboxMode: 'workspace-write',
        approvals: 'bridge',
        questions: 'bridge',
        toolActivity: 'redacted',
      },
    },
  },
};

export interface ChosenConfig {
  readonly config: RuntimeConfig;
  /** Where it came from: a file path, or `built-in`. */
  readonly source: string;
  readonly profile: string;
}

export interface ConfigChoice {
  readonly configFile: string | undefined;
  readonly profile: string | undefined;
  readonly sandbox: string | undefined;
  readonly approvals: string | undefined;
  /** `-m/--model`: the model of the chosen codex profile, for this run. */
  readonly model?: string | undefined;
  readonly cwd: string;
}

function describeRuntimeError(error: unknown): string {
  if (isRuntimeError(error)) {
    const details = error.error.details ?? {};
    const where = [details.profile, details.path].filter((x) => typeof x === 'string').join(' ');
    return `${error.error.message}${where === '' ? '' : ` (${where})`}`;
  }
  return error instanceof Error ? error.message : 'unknown error';
}

export function chooseConfig(choice: ConfigChoice): ChosenConfig {
  const file =
    choice.configFile !== undefined
      ? resolve(choice.cwd, choice.configFile)
      : existsSync(join(choice.cwd, DEFAULT_CONFIG_FILE))
        ? join(choice.cwd, DEFAULT_CONFIG_FILE)
        : undefined;
  let config: RuntimeConfig;
  try {
    config = file === undefined ? parseRuntimeConfig(BUILT_IN_CONFIG) : loadRuntimeConfig(file);
  } catch (error) {
    throw new CliExit(EXIT.usage, `config ${file ?? 'built-in'}: ${describeRuntimeError(error)}`);
  }
  const profile = choice.profile ?? config.defaultProfile;
  const chosen = config.profiles[profile];
  if (chosen === undefined) {
    throw new CliExit(
      EXIT.usage,
      `no profile "${profile}" in ${file ?? 'the built-in config'} (profiles: ${Object.keys(config.profiles).join(', ')})`,
    );
  }
  if (
    choice.sandbox !== undefined ||
    choice.approvals !== undefined ||
    choice.model !== undefined
  ) {
    if (chosen.provider !== 'codex') {
      throw new CliExit(
        EXIT.usage,
        `--sandbox/--approvals/--model apply to codex profiles; "${profile}" uses ${chosen.provider}`,
      );
    }
    const providerOptions = {
      ...chosen.providerOptions,
      ...(choice.model === undefined ? {} : { model: choice.model }),
      ...(choice.sandbox === undefined ? {} : { sandboxMode: choice.sandbox }),
      ...(choice.approvals === undefined ? {} : { approvals: choice.approvals }),
    };
    // a profile's sessionOptions win over its providerOptions; the command line wins over both
    const sessionOptions = { ...chosen.sessionOptions };
    if (choice.model !== undefined && 'model' in sessionOptions)
      sessionOptions.model = choice.model;
    if (choice.sandbox !== undefined && 'sandboxMode' in sessionOptions)
      sessionOptions.sandboxMode = choice.sandbox;
    config = parseRuntimeConfig({
      ...config,
      profiles: { ...config.profiles, [profile]: { ...chosen, providerOptions, sessionOptions } },
    });
  }
  return { config, source: file ?? 'built-in', profile };
}
