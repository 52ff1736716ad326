/** A host config file whose codex profile points at a scripted model (how tests drive `run`). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  ScriptedModelServer,
  type IsolatedCodexHome,
  type ModelServerOptions,
} from '@relvo-labs/agent-provider-codex/testing';

export interface ScriptedRunSetup {
  readonly server: ScriptedModelServer;
  readonly iso: IsolatedCodexHome;
  readonly configFile: string;
  readonly eventLog: string;
  /** argv after `run "<prompt>"`. */
  readonly runArgs: readonly string[];
  cleanup(): Promise<void>;
}

export async function scriptedRunSetup(
  env: Record<string, string>,
  providerOptions: Record<string, unknown> = {},
  /** More `-c` overrides for codex (e.g. its retry budget). */
  codexExtra: readonly string[] = [],
  /** The scripted server's own options (e.g. a `sleep` the test holds). */
  serverOptions: ModelServerOptions = {},
): Promise<ScriptedRunSetup> {
  const server = await ScriptedModelServer.start(serverOptions);
  const iso = createIsolatedCodexHome('relvo-cli-run-');
  const dir = mkdtempSync(join(tmpdir(), 'relvo-cli-config-'));
  const configFile = join(dir, 'relvo.config.json');
  const eventLog = join(dir, 'events.sqlite');
  writeFileSync(
    configFile,
    JSON.stringify({
      defaultProfile: 'scripted',
      profiles: {
        scripted: {
          provider: 'codex',
          providerOptions: {
            extraArgs: codexConfigArgs({ baseUrl: server.baseUrl, extra: codexExtra }),
            // the isolated HOME/CODEX_HOME plus the test's leak marks
            env: iso.env(env),
            approvals: 'bridge',
            ...providerOptions,
          },
        },
      },
    }),
  );
  return {
    server,
    iso,
    configFile,
    eventLog,
    runArgs: ['--config', configFile, '--cwd', iso.workspace, '--event-log', eventLog],
    async cleanup() {
      await server.close();
      iso.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A scripted model's `sleep` the test holds: every delay waits until `release()` (then none
 * does), so "the turn is at the model" is a state to wait for (`held()`), not a race.
 */
export function heldModel(): {
  readonly sleep: () => Promise<void>;
  held(): number;
  release(): void;
} {
  const waiting: (() => void)[] = [];
  let open = false;
  return {
    sleep: () =>
      open
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            waiting.push(resolve);
          }),
    held: () => waiting.length,
    release: () => {
      open = true;
      for (const go of waiting.splice(0)) go();
    },
  };
}
