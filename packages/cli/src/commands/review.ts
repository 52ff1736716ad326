/**
 * `relvo-codex review <version>`: runs the repository's compatibility review
 * (`npm run review -- <version> …`, see docs/protocol-window.md). The review installs a
 * release, pins its schema, records its transcripts and runs the real-binary suite: it needs a
 * clone of the repository, which is where the provider package resolves from in development.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { cliPackageRoot } from '../codex/locate.js';
import { CliExit, EXIT } from '../exit-codes.js';

/** The checkout holding the provider's sources and its `review` script, if there is one. */
export function findReviewRepository(from = cliPackageRoot()): string | undefined {
  let pkgJson: string;
  try {
    pkgJson = createRequire(join(from, 'noop.js')).resolve(
      '@relvo-labs/agent-provider-codex/package.json',
    );
  } catch {
    return undefined;
  }
  const root = dirname(pkgJson);
  try {
    const parsed = JSON.parse(readFileSync(pkgJson, 'utf8')) as {
      scripts?: Record<string, string>;
    };
    if (typeof parsed.scripts?.review !== 'string') return undefined;
  } catch {
    return undefined;
  }
  return existsSync(join(root, 'node_modules')) ? root : undefined;
}

const VERSION_RE = /^\d+\.\d+\.\d+$/;

export function reviewArgs(version: string, passThrough: readonly string[]): string[] {
  if (!VERSION_RE.test(version) && !version.startsWith('--')) {
    throw new CliExit(EXIT.usage, `review: "${version}" is not a release (X.Y.Z)`);
  }
  return ['run', '--silent', 'review', '--', version, ...passThrough];
}

export function runReview(
  version: string,
  passThrough: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const args = reviewArgs(version, passThrough);
  const repo = findReviewRepository();
  if (repo === undefined) {
    throw new CliExit(
      EXIT.usage,
      'review: no repository checkout with a `review` script found; run it from a clone of the provider repository (`npm ci` first)',
    );
  }
  return new Promise((resolve, reject) => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    // Same process group: a Ctrl-C in the terminal reaches the review and its children too.
    const child = spawn(npm, args, { cwd: repo, env, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      resolve(code ?? (signal === 'SIGINT' ? EXIT.interrupted : EXIT.failed));
    });
  });
}
