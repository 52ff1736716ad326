/**
 * A deliberate public surface: each entry point of each package exports exactly the values its
 * README lists between `<!-- exports: <entry> -->` and `<!-- /exports -->` (docs/testing.md,
 * "Documentation that runs"); each README links only to files its package ships; and the
 * adapter's version is its package.json's, with no copy of it in the source.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCodexProvider } from '@relvo-labs/agent-provider-codex';
import { exportLists, readDoc } from '../support/doc-blocks.js';
import { REPO_ROOT } from '../support/paths.js';

interface PackageJson {
  readonly name: string;
  readonly version: string;
  readonly files: readonly string[];
  readonly exports: Record<string, unknown>;
}

const PACKAGE_DIRS = ['.', 'packages/agent-provider', 'packages/agent-runtime', 'packages/cli'];
const manifest = (dir: string): PackageJson =>
  JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as PackageJson;

/** The JavaScript entry points a package declares (`.` and subpaths, not files or patterns). */
function entriesOf(pkg: PackageJson): string[] {
  return Object.keys(pkg.exports)
    .filter((key) => key !== './package.json' && !key.includes('*'))
    .map((key) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`));
}

describe('each package exports what its README lists, and nothing else', () => {
  for (const dir of PACKAGE_DIRS) {
    const pkg = manifest(dir);
    const lists = exportLists(readDoc(join(dir, 'README.md')));
    for (const entry of entriesOf(pkg)) {
      it(entry, async () => {
        const listed = lists.get(entry);
        expect(listed, `${dir}/README.md has no exports list for ${entry}`).toBeDefined();
        const actual = Object.keys((await import(entry)) as object).filter((k) => k !== 'default');
        expect([...new Set(listed)].sort()).toEqual(actual.sort());
      });
    }
    it(`${pkg.name}: no list for an entry the package does not have`, () => {
      expect([...lists.keys()].filter((e) => !entriesOf(pkg).includes(e))).toEqual([]);
    });
  }

  it('reads every backticked name between the markers, and only there', () => {
    const text =
      '`outside`\n<!-- exports: x -->\n- `a`, `b` — what they do\n<!-- /exports -->\n`after`';
    expect([...exportLists(text)]).toEqual([['x', ['a', 'b']]]);
  });
});

/** Whether `target` (relative to the package folder) is inside what `files` ships. */
function ships(pkg: PackageJson, target: string): boolean {
  const path = normalize(target).replace(/\/$/, '');
  if (path.startsWith('..')) return false;
  return ['package.json', 'README.md', 'LICENSE', ...pkg.files].some(
    (entry) => path === entry || path.startsWith(`${entry}/`),
  );
}

describe('package READMEs link only to what their package ships', () => {
  for (const dir of PACKAGE_DIRS) {
    const pkg = manifest(dir);
    it(pkg.name, () => {
      const readme = readDoc(join(dir, 'README.md'));
      const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
        .map((m) => m[1]!)
        .filter((t) => !/^[a-z]+:/.test(t));
      const broken = targets.filter((t) => !ships(pkg, t) || !existsSync(join(REPO_ROOT, dir, t)));
      expect(broken).toEqual([]);
    });
  }

  it('a link out of the package, or to a folder it does not ship, would be caught', () => {
    const runtime = manifest('packages/agent-runtime');
    expect(ships(runtime, '../../adr/ADR-0001-packages-and-layering.md')).toBe(false);
    expect(ships(runtime, 'src/index.ts')).toBe(false);
    expect(ships(runtime, 'dist/index.js')).toBe(true);
  });
});

describe("the adapter's version", () => {
  it('is the one in its package.json, reported by the descriptor', () => {
    const { version } = manifest('.');
    const provider = createCodexProvider({
      transport: () => {
        throw new Error('unused');
      },
    });
    expect(provider.describe().providerVersion).toBe(version);
  });

  it('is written nowhere in the source', () => {
    const { version } = manifest('.');
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', 'src'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((f) => f.endsWith('.ts') && existsSync(join(REPO_ROOT, f)));
    expect(files.length).toBeGreaterThan(20);
    const copies = files.filter((f) =>
      readFileSync(join(REPO_ROOT, f), 'utf8').includes(`'${version}'`),
    );
    expect(copies).toEqual([]);
  });
});
