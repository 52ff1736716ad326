/**
 * The real handshake of the window's first and last release through createCodexProvider: the
 * version gate accepts both and a thread starts. The last release is the pinned devDependency
 * (or the release cache when it is not the baseline); the first comes from the release cache,
 * which this test fills from the npm registry when it lacks the release (once: it is reused).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { installRelease, INSTALL_TIMEOUT_MS } from '../../scripts/lib/release-binary.js';
import {
  CODEX_APP_SERVER_MAX_VERSION,
  CODEX_APP_SERVER_MIN_VERSION,
  CODEX_APP_SERVER_VERSION,
} from '../../src/constants.js';
import { createCodexProvider } from '../../src/index.js';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  locateCodexBinary,
  ScriptedModelServer,
} from '../../src/testing/index.js';
import { codexReportedVersion } from '../../src/testing/codex-binary.js';
import { testEnv } from '../support/processes.js';
import { recordingSink } from '../support/provider-harness.js';

const ENDS = [
  ['first', CODEX_APP_SERVER_MIN_VERSION],
  ['last', CODEX_APP_SERVER_MAX_VERSION],
] as const;

const binaries = new Map<string, string>();

function binaryOf(version: string): string {
  if (version === CODEX_APP_SERVER_VERSION) {
    const pinned = locateCodexBinary({ kind: 'native' });
    if (pinned.found && pinned.version === version) return pinned.path;
  }
  // a fresh machine has an empty release cache: the test installs what it needs
  return installRelease(version, (line) => process.stderr.write(`${line}\n`));
}

describe('the real handshake at both ends of the window', () => {
  beforeAll(() => {
    for (const [, version] of ENDS) binaries.set(version, binaryOf(version));
  }, 2 * INSTALL_TIMEOUT_MS);

  it.each(ENDS)(
    '%s release (%s): createSession succeeds and the session disposes',
    async (_end, version) => {
      const binary = binaries.get(version) ?? binaryOf(version);
      expect(codexReportedVersion(binary)).toBe(version);
      const iso = createIsolatedCodexHome('relvo-ends-');
      const server = await ScriptedModelServer.start();
      try {
        const provider = createCodexProvider({
          executable: binary,
          extraArgs: codexConfigArgs({ baseUrl: server.baseUrl }),
          env: iso.env(testEnv()),
          requestTimeoutMs: 20_000,
        });
        const session = await provider.createSession({
          options: {},
          workspace: { root: iso.workspace, ownership: 'borrowed' },
          sink: recordingSink(),
        });
        await session.dispose();
        expect(server.requests).toHaveLength(0);
      } finally {
        await server.close();
        iso.dispose();
      }
    },
  );
});
