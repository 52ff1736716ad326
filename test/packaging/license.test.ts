/**
 * Every package of the workspace is Apache-2.0: `license` in its package.json and a LICENSE
 * file next to it, which `npm pack` ships. Packages added later are found by listing the
 * workspaces, so a new package without a licence fails here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/paths.js';

interface Manifest {
  readonly name: string;
  readonly license?: string;
  readonly workspaces?: readonly string[];
}

function manifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

function packageDirs(): string[] {
  const root = manifest(REPO_ROOT);
  const dirs = (root.workspaces ?? []).flatMap((w) =>
    w.endsWith('/*')
      ? readdirSync(join(REPO_ROOT, w.slice(0, -2)), { withFileTypes: true })
          .filter(
            (e) =>
              e.isDirectory() &&
              existsSync(join(REPO_ROOT, w.slice(0, -2), e.name, 'package.json')),
          )
          .map((e) => join(REPO_ROOT, w.slice(0, -2), e.name))
      : [join(REPO_ROOT, w)],
  );
  return [REPO_ROOT, ...dirs];
}

describe('licence', () => {
  const dirs = packageDirs();

  it('lists at least the root and the SPI package', () => {
    expect(dirs.map((d) => manifest(d).name)).toEqual(
      expect.arrayContaining(['@relvo-labs/agent-provider-codex', '@relvo-labs/agent-provider']),
    );
  });

  it.each(dirs.map((d) => [manifest(d).name, d] as const))(
    '%s declares Apache-2.0 and carries the LICENSE text',
    (_name, dir) => {
      expect(manifest(dir).license).toBe('Apache-2.0');
      const file = join(dir, 'LICENSE');
      expect(existsSync(file)).toBe(true);
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('Apache License');
      expect(text).toContain('Version 2.0, January 2004');
      expect(text).toContain('END OF TERMS AND CONDITIONS');
    },
  );
});
