/** Locating the pinned codex: found with a plain version, or a typed reason; CI never skips. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { locateCodexBinary, requireCodexBinary } from '../../src/testing/index.js';
import { testEnv } from '../support/processes.js';
import { CODEX_APP_SERVER_VERSION } from '../../src/constants.js';

/** Where the binary of `kind` was found, after checking it is the pinned version. */
function foundPath(kind: 'native' | 'launcher'): string {
  const located = locateCodexBinary({ kind });
  expect(located).toMatchObject({ found: true, kind, version: CODEX_APP_SERVER_VERSION });
  if (!located.found) throw new Error('unreachable');
  return located.path;
}

describe('locateCodexBinary', () => {
  it('finds the native binary of the pinned devDependency and it reports that version', () => {
    const path = foundPath('native');
    expect(path).toMatch(
      /@openai\/codex-linux-x64\/vendor\/x86_64-unknown-linux-musl\/bin\/codex$/,
    );
    const out = execFileSync(path, ['--version'], {
      encoding: 'utf8',
      env: testEnv(),
      stdio: 'pipe',
    });
    expect(out.trim()).toBe(`codex-cli ${CODEX_APP_SERVER_VERSION}`);
  });

  it('finds the launcher script', () => {
    expect(foundPath('launcher')).toMatch(/node_modules\/\.bin\/codex$/);
  });

  it('is arch-aware: another arch needs another platform package', () => {
    expect(locateCodexBinary({ kind: 'native', arch: 'arm64' })).toEqual({
      found: false,
      kind: 'native',
      reason: 'platform_package_missing',
    });
    expect(locateCodexBinary({ kind: 'native', platform: 'aix' })).toMatchObject({
      reason: 'platform_unsupported',
    });
  });

  it('returns a typed not-found result outside any install', () => {
    const empty = mkdtempSync(join(tmpdir(), 'relvo-nocodex-'));
    try {
      expect(locateCodexBinary({ kind: 'native', from: empty })).toEqual({
        found: false,
        kind: 'native',
        reason: 'package_missing',
      });
      expect(() =>
        requireCodexBinary({ kind: 'native', from: empty, env: { CI: 'true' } }),
      ).toThrow(
        'codex native binary not found (package_missing): CI=true requires the pinned @openai/codex devDependency',
      );
      // Outside CI it still fails; there is no skip path.
      expect(() => requireCodexBinary({ kind: 'launcher', from: empty, env: {} })).toThrow(
        'npm ci',
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
