/**
 * The host config `run` uses: `--config FILE`, else the built-in config. A `./relvo.config.json`
 * found on its own is never loaded (ADR-0026): a checkout could name the program to run, so the
 * person opts in with `--config relvo.config.json`, or ignores it with `--no-config`. The file
 * format is the runtime's (`loadRuntimeConfig`); `--sandbox` and `--approvals` override the
 * chosen codex profile's provider options for this run only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runOptionsSchema, type JsonObject } from '@relvo-labs/agent-provider';
import {
  isRuntimeError,
  loadRuntimeConfig,
  parseRuntimeConfig,
  type RuntimeConfig,
  type RuntimeConfigInput,
} from '@relvo-labs/agent-runtime';
import { CliExit, EXIT } from '../exit-codes.js';
import { DEFAULT_CONFIG_FILE } from '../paths.js';

/** The name the Codex provider is registered under (host/runtime.ts). */
const PROVIDER = 'codex';

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
  /** `--config FILE`; false for `--no-config`; undefined when neither was given. */
  readonly configFile: string | false | undefined;
  readonly profile: string | undefined;
  readonly sandbox: string | undefined;
  readonly approvals: string | undefined;
  /** `-m/--model`: the model of the chosen codex profile, for this run. */
  readonly model?: string | undefined;
  /** `--effort`: the reasoning effort of every turn of this run (the profile's `run.effort`). */
  readonly effort?: string | undefined;
  /** `--summary`: the reasoning summary of every turn of this run (the profile's `run.summary`). */
  readonly summary?: string | undefined;
  /** `--output-schema`: the JSON Schema every turn's answer must match (`run.outputSchema`). */
  readonly outputSchema?: JsonObject | undefined;
  readonly cwd: string;
}

/** A config file that could not be loaded, said plainly; the runtime's wording is `--verbose`. */
function loadFailure(error: unknown, file: string): CliExit {
  if (!isRuntimeError(error))
    return new CliExit(EXIT.usage, `config file ${file} could not be loaded; check it`);
  const detail = `${error.error.message} [${error.reason}]`;
  const errno = error.error.details?.errno;
  if (error.reason === 'config_unreadable') {
    const what =
      errno === 'ENOENT'
        ? 'does not exist'
        : errno === 'EISDIR'
          ? 'is a folder'
          : `cannot be read (${typeof errno === 'string' ? errno : 'unknown'})`;
    return new CliExit(
      EXIT.usage,
      `config file ${file} ${what}; name a readable file with --config, or leave --config out to use the built-in profiles`,
      detail,
    );
  }
  if (error.reason === 'unknown_profile') {
    return new CliExit(
      EXIT.usage,
      `config file ${file}: defaultProfile names no profile; set it to one of: ${knownProfiles(file)}`,
      detail,
    );
  }
  // the file is the person's own: the key to fix is what to do
  return new CliExit(
    EXIT.usage,
    `config file ${file}: ${error.error.message.replace(/^host config( file)?: ?/, '')}; fix it`,
    detail,
  );
}

/** The profiles a file names, for a message (the file parsed once more, without checks). */
function knownProfiles(file: string): string {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const profiles =
      typeof parsed === 'object' && parsed !== null && 'profiles' in parsed
        ? parsed.profiles
        : undefined;
    const names = typeof profiles === 'object' && profiles !== null ? Object.keys(profiles) : [];
    return names.length === 0 ? '(it has none)' : names.slice(0, 20).join(', ');
  } catch {
    return '(unreadable)';
  }
}

/** Refuses a `./relvo.config.json` nobody pointed us at: it could choose what runs. */
function refuseImplicitConfig(cwd: string): void {
  const found = join(cwd, DEFAULT_CONFIG_FILE);
  if (!existsSync(found)) return;
  throw new CliExit(
    EXIT.usage,
    `found ${found} but did not load it: a config file in the current folder can name the ` +
      `program relvo-codex starts (executable, extraArgs, env), so it is used only when you ` +
      `ask for it. Read it; if you trust it, run again with --config ${DEFAULT_CONFIG_FILE}; ` +
      `to ignore it and use the built-in profiles, add --no-config.`,
  );
}

/** The CLI registers one provider, `codex`: a profile naming another could never start. */
function refuseUnknownProviders(config: RuntimeConfig, file: string | undefined): void {
  for (const [name, profile] of Object.entries(config.profiles)) {
    if (profile.provider === PROVIDER) continue;
    throw new CliExit(
      EXIT.usage,
      `${file ?? 'config'}: profiles.${name}.provider is "${profile.provider}", but relvo-codex ` +
        `has only the provider "${PROVIDER}"; set it to "${PROVIDER}" or remove the profile`,
    );
  }
}

/**
 * codex answers a thread's effort only when one is configured, and a per-turn effort is refused
 * on a thread without one (it could not be undone); every turn of a run has the same effort, so
 * it is configured for the thread too (`-c model_reasoning_effort`, after the profile's own).
 */
function withEffort(profile: RuntimeConfig['profiles'][string], effort: string): string[] {
  const own: unknown = profile.providerOptions.extraArgs;
  const before = Array.isArray(own) ? own.filter((a): a is string => typeof a === 'string') : [];
  return [...before, '-c', `model_reasoning_effort="${effort}"`];
}

export function chooseConfig(choice: ConfigChoice): ChosenConfig {
  if (choice.configFile === undefined) refuseImplicitConfig(choice.cwd);
  const file =
    typeof choice.configFile === 'string' ? resolve(choice.cwd, choice.configFile) : undefined;
  let config: RuntimeConfig;
  try {
    config = file === undefined ? parseRuntimeConfig(BUILT_IN_CONFIG) : loadRuntimeConfig(file);
  } catch (error) {
    throw loadFailure(error, file ?? 'built-in');
  }
  const profile = choice.profile ?? config.defaultProfile;
  // own keys only: `--profile __proto__` must not find Object.prototype
  const chosen = Object.hasOwn(config.profiles, profile) ? config.profiles[profile] : undefined;
  if (chosen === undefined) {
    throw new CliExit(
      EXIT.usage,
      `no profile "${profile}" in ${file ?? 'the built-in config'}; pick one with --profile NAME: ${Object.keys(config.profiles).join(', ')}`,
    );
  }
  refuseUnknownProviders(config, file);
  if (choice.model?.trim() === '')
    throw new CliExit(
      EXIT.usage,
      '--model must not be empty; give a model name (relvo-codex models lists them)',
    );
  if (
    choice.effort !== undefined &&
    !runOptionsSchema.shape.effort.safeParse(choice.effort).success
  ) {
    throw new CliExit(
      EXIT.usage,
      "--effort takes a lower-case level such as low, medium or high (`relvo-codex models` lists each model's)",
    );
  }
  const perTurn = {
    ...(choice.effort === undefined ? {} : { effort: choice.effort }),
    ...(choice.summary === undefined ? {} : { summary: choice.summary }),
    ...(choice.outputSchema === undefined ? {} : { outputSchema: choice.outputSchema }),
  };
  // --effort, else the profile's run.effort: configured for a codex thread too (withEffort)
  const threadEffort =
    chosen.provider === 'codex' ? (choice.effort ?? chosen.run?.effort) : undefined;
  if (
    choice.sandbox !== undefined ||
    choice.approvals !== undefined ||
    choice.model !== undefined ||
    threadEffort !== undefined ||
    Object.keys(perTurn).length > 0
  ) {
    const providerOptions = {
      ...chosen.providerOptions,
      ...(choice.model === undefined ? {} : { model: choice.model }),
      ...(choice.sandbox === undefined ? {} : { sandboxMode: choice.sandbox }),
      ...(choice.approvals === undefined ? {} : { approvals: choice.approvals }),
      ...(threadEffort === undefined ? {} : { extraArgs: withEffort(chosen, threadEffort) }),
    };
    // a profile's sessionOptions win over its providerOptions; the command line wins over both,
    // and over the profile's per-turn `run.model` too, which would otherwise win over all
    const sessionOptions = { ...chosen.sessionOptions };
    const runModel =
      choice.model !== undefined && chosen.run?.model !== undefined ? { model: choice.model } : {};
    const run =
      Object.keys(perTurn).length === 0 && runModel.model === undefined
        ? undefined
        : { ...chosen.run, ...runModel, ...perTurn };
    if (choice.model !== undefined && 'model' in sessionOptions)
      sessionOptions.model = choice.model;
    if (choice.sandbox !== undefined && 'sandboxMode' in sessionOptions)
      sessionOptions.sandboxMode = choice.sandbox;
    config = parseRuntimeConfig({
      ...config,
      profiles: {
        ...config.profiles,
        [profile]: {
          ...chosen,
          providerOptions,
          sessionOptions,
          ...(run === undefined ? {} : { run }),
        },
      },
    });
  }
  return { config, source: file ?? 'built-in', profile };
}
