/**
 * Each packed README stands on its own: every relative link names a file inside that package's
 * tarball (as `npm pack` lists it), and no contributor-only material leaks into it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, normalize, posix } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const PACKAGES = ['.', 'packages/agent-provider', 'packages/agent-runtime', 'packages/cli'];
const CONTRIBUTOR_WORDS = [/\.ci\/run/, /not part of this package/i, /worktree/i];

function packedFiles(dir: string): Set<string> {
  const npm = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: join(ROOT, dir),
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(npm.status).toBe(0);
  const packed = JSON.parse(npm.stdout) as { files: { path: string }[] }[];
  return new Set(packed[0]?.files.map((f) => f.path) ?? []);
}

function relativeLinks(markdown: string): string[] {
  const links = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '');
  return links.filter((l) => !/^[a-z]+:/i.test(l) && !l.startsWith('#'));
}

describe.each(PACKAGES)('the README packed with %s', (dir) => {
  const readme = readFileSync(join(ROOT, dir, 'README.md'), 'utf8');

  it('links only to files inside the tarball', () => {
    const files = packedFiles(dir);
    expect(files.has('README.md')).toBe(true);
    const missing = relativeLinks(readme)
      .map((l) =>
        normalize(l.split('#')[0] ?? '')
          .split('\\')
          .join(posix.sep),
      )
      .filter((path) => !files.has(path));
    expect(missing).toEqual([]);
  }, 90_000);

  it('carries no contributor-only material', () => {
    expect(CONTRIBUTOR_WORDS.filter((w) => w.test(readme)).map(String)).toEqual([]);
  });
});
