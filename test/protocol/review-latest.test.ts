/**
 * `npm run review -- --latest` on a stubbed registry answer (no network): which releases it
 * reviews, its exit status, and the allowlist it writes back into src/constants.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rewriteAllowlist } from '../../scripts/lib/review/allowlist.js';
import { newerReleases, reviewLatest, type LatestDeps } from '../../scripts/lib/review/latest.js';
import { REPO_ROOT } from '../support/paths.js';

/** What `npm view @openai/codex versions --json` answers, in part (pre-releases included). */
const REGISTRY = [
  '0.169.0',
  '0.171.0',
  '0.172.0-alpha.1',
  '0.172.0',
  '0.172.1',
  '0.173.0-beta.2',
  'latest',
  17,
];

function run(
  registry: readonly unknown[],
  verdicts: Readonly<Record<string, string | Error>>,
): { deps: LatestDeps; reviewed: string[]; lines: string[] } {
  const reviewed: string[] = [];
  const lines: string[] = [];
  const deps: LatestDeps = {
    registryVersions: () => registry,
    reviewed: () => ['0.155.0', '0.171.0', '0.169.0'],
    review: (version) => {
      reviewed.push(version);
      const verdict = verdicts[version] ?? 'pass';
      return verdict instanceof Error ? Promise.reject(verdict) : Promise.resolve(verdict);
    },
    log: (line) => lines.push(line),
  };
  return { deps, reviewed, lines };
}

describe('npm run review -- --latest', () => {
  it('finds the stable releases newer than the newest reviewed one, oldest first', () => {
    expect(newerReleases(REGISTRY, ['0.155.0', '0.171.0', '0.169.0'])).toEqual([
      '0.172.0',
      '0.172.1',
    ]);
    expect(newerReleases(['0.2.0', '0.10.0', '0.9.1'], ['0.9.0'])).toEqual(['0.9.1', '0.10.0']);
  });

  it('exits 0 and reviews nothing when nothing is new', async () => {
    const { deps, reviewed, lines } = run(['0.169.0', '0.171.0', '0.172.0-alpha.1'], {});
    expect(await reviewLatest(deps)).toEqual({ exitCode: 0, reviewed: [], failed: [] });
    expect(reviewed).toEqual([]);
    expect(lines).toEqual(['no stable release newer than the newest reviewed one']);
  });

  it('exits 0 when every new release passes', async () => {
    const { deps, reviewed, lines } = run(REGISTRY, {});
    expect(await reviewLatest(deps)).toEqual({
      exitCode: 0,
      reviewed: ['0.172.0', '0.172.1'],
      failed: [],
    });
    expect(reviewed).toEqual(['0.172.0', '0.172.1']);
    expect(lines.at(-1)).toBe('all 2 new release(s) passed');
  });

  it('exits 1 naming the releases that failed, and still reviews the rest', async () => {
    const { deps, reviewed, lines } = run(REGISTRY, {
      '0.172.0': 'fail (published events differ: text_turn (run.message_delta))',
      '0.172.1': new Error('could not install @openai/codex@0.172.1'),
    });
    const outcome = await reviewLatest(deps);
    expect(outcome).toEqual({
      exitCode: 1,
      reviewed: ['0.172.0', '0.172.1'],
      failed: ['0.172.0', '0.172.1'],
    });
    expect(reviewed).toEqual(['0.172.0', '0.172.1']);
    expect(lines.at(-1)).toBe('failed: 0.172.0, 0.172.1');
  });
});

describe('the allowlist written back to src/constants.ts', () => {
  const source = readFileSync(join(REPO_ROOT, 'src', 'constants.ts'), 'utf8');

  it('becomes the passing set in release order, with the window ends', () => {
    const next = rewriteAllowlist(source, ['0.172.0', '0.155.0', '0.171.0']);
    expect(next).toContain(
      "export const CODEX_SUPPORTED_APP_SERVER_VERSIONS = [\n  '0.155.0',\n  '0.171.0',\n  '0.172.0',\n] as const;",
    );
    expect(next).toContain("export const CODEX_APP_SERVER_MIN_VERSION = '0.155.0';");
    expect(next).toContain("export const CODEX_APP_SERVER_MAX_VERSION = '0.172.0';");
    // the rest of the file is untouched
    const outside = (text: string): string =>
      text
        .replace(/CODEX_SUPPORTED_APP_SERVER_VERSIONS = \[[^\]]*\]/, '')
        .replace(/'0\.\d+\.\d+'/g, '');
    expect(outside(next)).toBe(outside(source));
  });

  it('rewriting with the current allowlist changes nothing', async () => {
    const { CODEX_SUPPORTED_APP_SERVER_VERSIONS } = await import('../../src/constants.js');
    expect(rewriteAllowlist(source, CODEX_SUPPORTED_APP_SERVER_VERSIONS)).toBe(source);
  });

  it('refuses an empty passing set and a file of another shape', () => {
    expect(() => rewriteAllowlist(source, [])).toThrow('no release passes its review');
    expect(() => rewriteAllowlist('export const X = 1;\n', ['0.171.0'])).toThrow(
      'does not declare the allowlist',
    );
  });
});
