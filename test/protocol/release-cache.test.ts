/**
 * The release cache under concurrency: two test files (or a review beside a test run) may want the
 * same codex release at once. An install is made in a private directory and renamed into place
 * when complete, so no process ever finds, and runs, a release another one is still unpacking.
 * The installer is a stand-in that writes the layout `npm install` leaves (no registry here).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  findReleaseBinary,
  installRelease,
  RELEASE_CACHE_ENV,
  releaseCachePrefix,
  type ReleaseInstaller,
} from '../../scripts/lib/release-binary.js';

const VERSION = '0.999.1';
const TRIPLE: Record<string, [string, string]> = {
  'linux-x64': ['@openai/codex-linux-x64', 'x86_64-unknown-linux-musl'],
  'linux-arm64': ['@openai/codex-linux-arm64', 'aarch64-unknown-linux-musl'],
};

/** What `npm install --prefix <prefix> @openai/codex@<version>` leaves, as far as the locator looks. */
function writeInstall(prefix: string, version: string): void {
  const [pkg, triple] = TRIPLE[`${process.platform}-${process.arch}`] ?? [];
  if (pkg === undefined || triple === undefined) throw new Error('no stand-in layout here');
  const main = join(prefix, 'node_modules', '@openai', 'codex');
  mkdirSync(main, { recursive: true });
  writeFileSync(join(main, 'package.json'), JSON.stringify({ name: '@openai/codex', version }));
  const platform = join(prefix, 'node_modules', ...pkg.split('/'));
  mkdirSync(join(platform, 'vendor', triple, 'bin'), { recursive: true });
  writeFileSync(join(platform, 'package.json'), JSON.stringify({ name: pkg, version }));
  writeFileSync(join(platform, 'vendor', triple, 'bin', 'codex'), '', { mode: 0o755 });
}

let cache: string;
beforeEach(() => {
  cache = mkdtempSync(join(tmpdir(), 'relvo-release-cache-'));
  vi.stubEnv(RELEASE_CACHE_ENV, cache);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(cache, { recursive: true, force: true });
});

const quiet = (): void => undefined;

describe('installRelease', () => {
  it.runIf(TRIPLE[`${process.platform}-${process.arch}`] !== undefined)(
    'unpacks in a private directory: the cache entry appears only when complete',
    () => {
      const prefix = releaseCachePrefix(VERSION);
      const seen: { into: string; entryDuringInstall: boolean; foundDuringInstall: boolean }[] = [];
      const install: ReleaseInstaller = (version, into) => {
        writeInstall(into, version);
        seen.push({
          into,
          entryDuringInstall: existsSync(prefix),
          foundDuringInstall: findReleaseBinary(version) !== undefined,
        });
      };
      const binary = installRelease(VERSION, quiet, 1_000, install);
      expect(seen).toHaveLength(1);
      expect(seen[0]!.into).not.toBe(prefix);
      expect(seen[0]!.entryDuringInstall).toBe(false);
      expect(seen[0]!.foundDuringInstall).toBe(false);
      expect(binary.startsWith(`${prefix}/`)).toBe(true);
      expect(findReleaseBinary(VERSION)).toBe(binary);
      // nothing but the entry is left in the cache
      expect(readdirSync(cache)).toEqual([VERSION]);
      // a second call reuses it and installs nothing
      expect(installRelease(VERSION, quiet, 1_000, () => expect.unreachable())).toBe(binary);
    },
  );

  it.runIf(TRIPLE[`${process.platform}-${process.arch}`] !== undefined)(
    'keeps the complete install another process put in place first, and drops its own',
    () => {
      const prefix = releaseCachePrefix(VERSION);
      const install: ReleaseInstaller = (version, into) => {
        writeInstall(into, version);
        // the other process finishes while this one is still unpacking
        writeInstall(prefix, version);
        writeFileSync(join(prefix, 'theirs'), '');
      };
      const binary = installRelease(VERSION, quiet, 1_000, install);
      expect(binary.startsWith(`${prefix}/`)).toBe(true);
      expect(existsSync(join(prefix, 'theirs'))).toBe(true);
      expect(readdirSync(cache)).toEqual([VERSION]);
    },
  );

  it.runIf(TRIPLE[`${process.platform}-${process.arch}`] !== undefined)(
    'replaces an incomplete entry a killed run left behind',
    () => {
      const prefix = releaseCachePrefix(VERSION);
      // the main package without its platform package: nothing runnable
      mkdirSync(join(prefix, 'node_modules', '@openai', 'codex'), { recursive: true });
      writeFileSync(
        join(prefix, 'node_modules', '@openai', 'codex', 'package.json'),
        JSON.stringify({ name: '@openai/codex', version: VERSION }),
      );
      expect(findReleaseBinary(VERSION)).toBeUndefined();
      const binary = installRelease(VERSION, quiet, 1_000, writeInstallAs);
      expect(findReleaseBinary(VERSION)).toBe(binary);
      expect(readdirSync(cache)).toEqual([VERSION]);
    },
  );

  it('a failed install leaves nothing behind and says how to retry', () => {
    const failing: ReleaseInstaller = (_version, into) => {
      writeFileSync(join(into, 'partial'), '');
      throw new Error('npm failed');
    };
    expect(() => installRelease(VERSION, quiet, 1_000, failing)).toThrow(
      `retry with \`npm run codex:install -- ${VERSION}\``,
    );
    expect(readdirSync(cache)).toEqual([]);
  });
});

function writeInstallAs(version: string, into: string): void {
  writeInstall(into, version);
}
