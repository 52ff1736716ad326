/**
 * The capability gate lets real releases through that carry what is asked (ADR-0042): on the
 * window's first release (from the release cache, installed once when missing) and its last, a
 * session asking for every optional session feature opens, and `listModels` is answered. The
 * refusal side is in test/e2e/capability-gate.test.ts (a doctored map entry: no reviewed release
 * lacks a feature).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { installRelease, INSTALL_TIMEOUT_MS } from '../../scripts/lib/release-binary.js';
import { ReleaseCapabilities } from '../../src/capabilities/gate.js';
import { CODEX_FEATURES } from '../../src/capabilities/features.js';
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
import { testEnv } from '../support/processes.js';
import { recordingSink } from '../support/provider-harness.js';

const ENDS = [CODEX_APP_SERVER_MIN_VERSION, CODEX_APP_SERVER_MAX_VERSION] as const;
const binaries = new Map<string, string>();

function binaryOf(version: string): string {
  if (version === CODEX_APP_SERVER_VERSION) {
    const pinned = locateCodexBinary({ kind: 'native' });
    if (pinned.found && pinned.version === version) return pinned.path;
  }
  return installRelease(version, (line) => process.stderr.write(`${line}\n`));
}

describe('every optional feature on the real ends of the window', () => {
  beforeAll(() => {
    for (const version of ENDS) binaries.set(version, binaryOf(version));
  }, 2 * INSTALL_TIMEOUT_MS);

  it.each(ENDS)(
    '%s: the map says it carries all, and a session asking for all opens',
    async (v) => {
      expect(CODEX_FEATURES.filter((f) => !new ReleaseCapabilities(v).carries(f))).toEqual([]);
      const iso = createIsolatedCodexHome('relvo-caps-');
      const server = await ScriptedModelServer.start();
      try {
        const provider = createCodexProvider({
          executable: binaries.get(v) ?? binaryOf(v),
          extraArgs: codexConfigArgs({ baseUrl: server.baseUrl }),
          env: iso.env(testEnv()),
          requestTimeoutMs: 20_000,
          events: { plan: true, diff: 'patch', reasoningSummary: true },
          permissions: 'bridge',
          mcpElicitations: 'bridge',
          elicitationUrls: 'show',
          onRateLimits: () => undefined,
        });
        const session = await provider.createSession({
          options: {},
          workspace: { root: iso.workspace, ownership: 'borrowed' },
          sink: recordingSink(),
        });
        await session.dispose();
        const models = await provider.listModels({ cwd: iso.workspace });
        expect(models.models.length).toBeGreaterThan(0);
        expect(server.requests).toHaveLength(0);
      } finally {
        await server.close();
        iso.dispose();
      }
    },
  );
});
