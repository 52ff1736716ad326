/**
 * The REAL codex binary against a scripted model on 127.0.0.1, in an isolated CODEX_HOME: the
 * parts (`realCodexParts`), the JSON provider options a profile holds (`codexProviderJson`), and
 * a runtime with one profile on them (`codexRuntime`). Everything started is undone by the
 * caller's cleanups (in reverse), so the leak check sees no process left.
 */
import {
  createAgentRuntime,
  type AgentRuntime,
  type AgentRuntimeOptions,
  type RuntimeConfigInput,
} from '@relvo-labs/agent-runtime';
import type { JsonObject } from '@relvo-labs/agent-provider';
import { createCodexProvider } from '../../src/index.js';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  requireCodexBinary,
  ScriptedModelServer,
  type CodexBinary,
  type IsolatedCodexHome,
} from '../../src/testing/index.js';
import type { Cleanup } from './cleanups.js';
import { testEnv } from './processes.js';

type ProfileExtra = Omit<RuntimeConfigInput['profiles'][string], 'provider' | 'providerOptions'>;

/** The pinned binary, a throw-away codex home and a scripted model server. */
export interface RealCodexParts {
  readonly binary: CodexBinary;
  readonly iso: IsolatedCodexHome;
  readonly server: ScriptedModelServer;
}

export async function realCodexParts(
  cleanups: Cleanup[],
  prefix: string,
  kind: 'native' | 'launcher' = 'native',
): Promise<RealCodexParts> {
  const binary = requireCodexBinary({ kind });
  const iso = createIsolatedCodexHome(prefix);
  cleanups.push(() => {
    iso.dispose();
  });
  const server = await ScriptedModelServer.start();
  cleanups.push(() => server.close());
  return { binary, iso, server };
}

/** The test defaults: the binary, pointed at the scripted model, in the isolated home. */
export function codexProviderBase(parts: RealCodexParts) {
  return {
    executable: parts.binary.path,
    extraArgs: codexConfigArgs({ baseUrl: parts.server.baseUrl }),
    env: parts.iso.env(testEnv()),
    requestTimeoutMs: 20_000,
  };
}

/** Codex provider options as JSON (what a host's config file holds), over the test defaults. */
export function codexProviderJson(parts: RealCodexParts, over: JsonObject = {}): JsonObject {
  return { ...codexProviderBase(parts), ...over };
}

/** A runtime config with one default profile `codex` on these provider options. */
export function oneCodexProfile(
  providerOptions: JsonObject,
  profile: ProfileExtra = {},
): RuntimeConfigInput {
  return {
    defaultProfile: 'codex',
    profiles: { codex: { ...profile, provider: 'codex', providerOptions } },
  };
}

export interface CodexRuntime extends RealCodexParts {
  readonly runtime: AgentRuntime;
  readonly workspace: string;
}

export async function codexRuntime(
  cleanups: Cleanup[],
  options: {
    readonly prefix: string;
    /** Codex provider options over the defaults (JSON, as a profile holds them). */
    readonly providerOptions?: JsonObject | ((parts: RealCodexParts) => JsonObject);
    /** The profile's other settings; a function when they name the parts (the workspace). */
    readonly profile?: ProfileExtra | ((parts: RealCodexParts) => ProfileExtra);
    /** The runtime's options other than its providers and config (a store, telemetry, …). */
    readonly runtime?: Omit<AgentRuntimeOptions, 'providers' | 'config'>;
    /** The `codex` provider factory (default `createCodexProvider`), e.g. one that records. */
    readonly provider?: AgentRuntimeOptions['providers'][string];
    /** The test takes the runtime to a state (a lost lease) where shutdown may reject. */
    readonly shutdownMayFail?: boolean;
    /** This CODEX_HOME and model server (the caller cleans them up) instead of fresh ones. */
    readonly home?: Omit<RealCodexParts, 'binary'>;
  },
): Promise<CodexRuntime> {
  const parts =
    options.home === undefined
      ? await realCodexParts(cleanups, options.prefix)
      : { binary: requireCodexBinary({ kind: 'native' }), ...options.home };
  const profile = typeof options.profile === 'function' ? options.profile(parts) : options.profile;
  const over =
    typeof options.providerOptions === 'function'
      ? options.providerOptions(parts)
      : options.providerOptions;
  const runtime = await createAgentRuntime({
    ...options.runtime,
    providers: { codex: options.provider ?? createCodexProvider },
    config: oneCodexProfile(codexProviderJson(parts, over), profile),
  });
  cleanups.push(() =>
    options.shutdownMayFail === true
      ? runtime.shutdown().catch(() => undefined)
      : runtime.shutdown(),
  );
  return { ...parts, runtime, workspace: parts.iso.workspace };
}
