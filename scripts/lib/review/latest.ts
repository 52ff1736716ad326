/**
 * `npm run review -- --latest`, for a host's scheduled job: asks the registry for the stable
 * releases newer than the newest reviewed one, reviews each, and says what happened in its exit
 * status: 0 with nothing new, 0 when every new release passed, 1 naming those that failed. The
 * allowlist in src/constants.ts is then rewritten to the passing reports (allowlist.ts).
 */
import { PLAIN_RELEASE } from '../release-binary.js';

export const compareVersions = (a: string, b: string): number => {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
};

/** The stable releases in `published` newer than every release in `reviewed`, oldest first. */
export function newerReleases(
  published: readonly unknown[],
  reviewed: readonly string[],
): string[] {
  const newest = [...reviewed].sort(compareVersions).at(-1);
  return published
    .filter((v): v is string => typeof v === 'string' && PLAIN_RELEASE.test(v))
    .filter((v) => newest === undefined || compareVersions(v, newest) > 0)
    .sort(compareVersions);
}

export interface LatestDeps {
  /** Every version of @openai/codex the registry lists (`npm view … versions --json`). */
  readonly registryVersions: () => readonly unknown[];
  /** The releases that have a report. */
  readonly reviewed: () => readonly string[];
  /** Reviews one release and returns its verdict. */
  readonly review: (version: string) => Promise<string>;
  readonly log: (line: string) => void;
}

export interface LatestOutcome {
  readonly exitCode: 0 | 1;
  readonly reviewed: readonly string[];
  readonly failed: readonly string[];
}

export async function reviewLatest(deps: LatestDeps): Promise<LatestOutcome> {
  const fresh = newerReleases(deps.registryVersions(), deps.reviewed());
  if (fresh.length === 0) {
    deps.log('no stable release newer than the newest reviewed one');
    return { exitCode: 0, reviewed: [], failed: [] };
  }
  deps.log(`new stable releases: ${fresh.join(' ')}`);
  const failed: string[] = [];
  for (const version of fresh) {
    // one release that cannot be reviewed (an install that fails) is a failure, not the end
    const verdict = await deps.review(version).catch((error: unknown) => {
      return `fail (${error instanceof Error ? error.message : 'review failed'})`;
    });
    if (verdict !== 'pass') failed.push(version);
  }
  if (failed.length > 0) deps.log(`failed: ${failed.join(', ')}`);
  else deps.log(`all ${fresh.length} new release(s) passed`);
  return { exitCode: failed.length > 0 ? 1 : 0, reviewed: fresh, failed };
}
