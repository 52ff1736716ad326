/**
 * A runtime with one profile `codex` on the REAL codex binary against a scripted model on
 * 127.0.0.1, in an isolated CODEX_HOME; everything it starts is undone by the caller's cleanups
 * (in reverse), so the leak check sees no process left.
 */
import {
  createAgentRuntime,
  type AgentRuntime,
  type AgentRuntimeOptions,
  type EventStore,
  type RuntimeConfigInput,
} from '@relvo-labs/agent-runtime';
import type { JsonObject } from '@relvo-labs/agent-provider';
import { createCodexProvider } from '../../src/index.js';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  requireCodexBinary,
  ScriptedModelServer,
  type IsolatedCodexHome,
} from '../../src/testing/index.js';
import { testEnv } from './processes.js';

type ProfileInput = RuntimeConfigInput['profiles'][string];

export interface CodexRuntime {
  readonly runtime: AgentRuntime;
  readonly server: ScriptedModelServer;
  readonly workspace: string;
}

async function freshHome(
  cleanups: (() => Promise<void> | void)[],
  prefix: string,
): Promise<{ iso: IsolatedCodexHome; server: ScriptedModelServer }> {
  const iso = createIsolatedCodexHome(prefix);
  cleanups.push(() => {
    iso.dispose();
  });
  const server = await ScriptedModelServer.start();
  cleanups.push(() => server.close());
  return { iso, server };
}

export async function codexRuntime(
  cleanups: (() => Promise<void> | void)[],
  options: {
    readonly prefix: string;
    /** Codex provider options over the defaults (JSON, as a profile holds them). */
    readonly providerOptions?: JsonObject;
    readonly profile?: Omit<ProfileInput, 'provider' | 'providerOptions'>;
    readonly toolFunctions?: AgentRuntimeOptions['toolFunctions'];
    readonly store?: EventStore;
    /** This CODEX_HOME and model server (the caller cleans them up) instead of fresh ones. */
    readonly home?: { readonly iso: IsolatedCodexHome; readonly server: ScriptedModelServer };
  },
): Promise<CodexRuntime> {
  const binary = requireCodexBinary({ kind: 'native' });
  const { iso, server } = options.home ?? (await freshHome(cleanups, options.prefix));
  const runtime = await createAgentRuntime({
    providers: { codex: createCodexProvider },
    config: {
      defaultProfile: 'codex',
      profiles: {
        codex: {
          ...options.profile,
          provider: 'codex',
          providerOptions: {
            executable: binary.path,
            extraArgs: codexConfigArgs({ baseUrl: server.baseUrl }),
            env: iso.env(testEnv()),
            requestTimeoutMs: 20_000,
            ...options.providerOptions,
          },
        },
      },
    },
    ...(options.toolFunctions === undefined ? {} : { toolFunctions: options.toolFunctions }),
    ...(options.store === undefined ? {} : { store: options.store }),
  });
  cleanups.push(() => runtime.shutdown());
  return { runtime, server, workspace: iso.workspace };
}
