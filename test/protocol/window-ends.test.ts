/**
 * The real releases at both ends of the window through createCodexProvider. The last release is
 * the pinned devDependency (or the release cache when it is not the baseline); the first comes
 * from the release cache, which this test fills from the npm registry when it lacks the release
 * (once: it is reused).
 * - The handshake: the version gate accepts both and a thread starts.
 * - The capability gate lets them through (ADR-0042): a session asking for every optional
 *   session feature opens, and `listModels` is answered. The refusal side is in
 *   test/e2e/capability-gate.test.ts (a doctored map entry: no reviewed release lacks a feature).
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
import { createCodexProvider, type CodexProviderOptions } from '../../src/index.js';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  locateCodexBinary,
  ScriptedModelServer,
} from '../../src/testing/index.js';
import { codexReportedVersion } from '../../src/testing/codex-binary.js';
import { useCleanups } from '../support/cleanups.js';
import { testEnv } from '../support/processes.js';
import { recordingSink } from '../support/provider-harness.js';

const ENDS = [
  ['first', CODEX_APP_SERVER_MIN_VERSION],
  ['last', CODEX_APP_SERVER_MAX_VERSION],
] as const;
const VERSIONS = ENDS.map(([, version]) => version);

const binaries = new Map<string, string>();
const cleanups = useCleanups();

function binaryOf(version: string): string {
  if (version === CODEX_APP_SERVER_VERSION) {
    const pinned = locateCodexBinary({ kind: 'native' });
    if (pinned.found && pinned.version === version) return pinned.path;
  }
  // a fresh machine has an empty release cache: the test installs what it needs
  return installRelease(version, (line) => process.stderr.write(`${line}\n`));
}

beforeAll(() => {
  for (const version of VERSIONS) binaries.set(version, binaryOf(version));
}, 2 * INSTALL_TIMEOUT_MS);

/** A session opened and disposed on `version`; the provider, its workspace and the model server. */
async function openedOn(
  version: string,
  prefix: string,
  options: Omit<CodexProviderOptions, 'executable' | 'extraArgs' | 'env' | 'transport'> = {},
) {
  const iso = createIsolatedCodexHome(prefix);
  cleanups.push(() => {
    iso.dispose();
  });
  const server = await ScriptedModelServer.start();
  cleanups.push(() => server.close());
  const provider = createCodexProvider({
    executable: binaries.get(version) ?? binaryOf(version),
    extraArgs: codexConfigArgs({ baseUrl: server.baseUrl }),
    env: iso.env(testEnv()),
    requestTimeoutMs: 20_000,
    ...options,
  });
  const session = await provider.createSession({
    options: {},
    workspace: { root: iso.workspace, ownership: 'borrowed' },
    sink: recordingSink(),
  });
  await session.dispose();
  return { provider, workspace: iso.workspace, server };
}

describe('the real handshake at both ends of the window', () => {
  it.each(ENDS)(
    '%s release (%s): createSession succeeds and the session disposes',
    async (_end, version) => {
      expect(codexReportedVersion(binaries.get(version) ?? binaryOf(version))).toBe(version);
      const { server } = await openedOn(version, 'relvo-ends-');
      expect(server.requests).toHaveLength(0);
    },
  );
});

describe('every optional feature on the real ends of the window', () => {
  it.each(VERSIONS)(
    '%s: the map says it carries all, and a session asking for all opens',
    async (v) => {
      expect(CODEX_FEATURES.filter((f) => !new ReleaseCapabilities(v).carries(f))).toEqual([]);
      const { provider, workspace, server } = await openedOn(v, 'relvo-caps-', {
        events: { plan: true, diff: 'patch', reasoningSummary: true },
        permissions: 'bridge',
        mcpElicitations: 'bridge',
        elicitationUrls: 'show',
        onRateLimits: () => undefined,
      });
      const models = await provider.listModels({ cwd: workspace });
      expect(models.models.length).toBeGreaterThan(0);
      expect(server.requests).toHaveLength(0);
    },
  );
});
