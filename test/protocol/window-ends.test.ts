/**
 * The real handshake of the window's first and last release through createCodexProvider: the
 * version gate accepts both and a thread starts. The last release is the pinned devDependency
 * (or the release cache when it is not the baseline); the first comes from the release cache,
 * which `.ci/run` fills (`npm run codex:install -- --window-first`). A missing binary fails.
 */
import { describe, expect, it } from 'vitest';
import { findReleaseBinary, releaseCachePrefix } from '../../scripts/lib/release-binary.js';
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

function binaryOf(version: string): string {
  if (version === CODEX_APP_SERVER_VERSION) {
    const pinned = locateCodexBinary({ kind: 'native' });
    if (pinned.found && pinned.version === version) return pinned.path;
  }
  const cached = findReleaseBinary(version);
  if (cached === undefined) {
    throw new Error(
      `codex ${version} is not in the release cache (${releaseCachePrefix(version)}): ` +
        `run \`npm run codex:install -- ${version}\``,
    );
  }
  return cached;
}

describe('the real handshake at both ends of the window', () => {
  it.each([
    ['first', CODEX_APP_SERVER_MIN_VERSION],
    ['last', CODEX_APP_SERVER_MAX_VERSION],
  ])('%s release (%s): createSession succeeds and the session disposes', async (_end, version) => {
    const binary = binaryOf(version);
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
  });
});
