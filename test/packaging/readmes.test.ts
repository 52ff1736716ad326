/**
 * Each packed README stands on its own: every relative link names a file inside that package's
 * tarball (as `npm pack` lists it), and no contributor-only material leaks into it.
 */
import { readFileSync } from 'node:fs';
import { join, normalize, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packedPackages } from '../support/packing.js';
import { REPO_ROOT } from '../support/paths.js';

const PACKAGES = ['.', 'packages/agent-provider', 'packages/agent-runtime', 'packages/cli'];
const CONTRIBUTOR_WORDS = [/\.ci\/run/, /not part of this package/i, /worktree/i];

/** What `npm pack` puts in the tarball of the package in `dir` (the shared pack of this build). */
async function packedFiles(dir: string): Promise<Set<string>> {
  const packed = [...(await packedPackages()).values()].find((p) => p.dir === join(REPO_ROOT, dir));
  expect(packed, dir).toBeDefined();
  return new Set(packed?.files ?? []);
}

function relativeLinks(markdown: string): string[] {
  const links = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '');
  return links.filter((l) => !/^[a-z]+:/i.test(l) && !l.startsWith('#'));
}

describe.each(PACKAGES)('the README packed with %s', (dir) => {
  const readme = readFileSync(join(REPO_ROOT, dir, 'README.md'), 'utf8');

  it('links only to files inside the tarball', async () => {
    const files = await packedFiles(dir);
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
