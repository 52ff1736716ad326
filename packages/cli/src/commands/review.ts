/**
 * `relvo-codex review <version>`: runs the repository's compatibility review
 * (`npm run review -- <version> …`, see docs/protocol-window.md). The review installs a
 * release, pins its schema, records its transcripts and runs the real-binary suite: it needs a
 * clone of the repository, which is where the provider package resolves from in development.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
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
  repo: string | undefined = findReviewRepository(),
): Promise<number> {
  const args = reviewArgs(version, passThrough);
  if (repo === undefined) {
    throw new CliExit(
      EXIT.usage,
      'review: no repository checkout with a `review` script found; run it from a clone of the provider repository (`npm ci` first)',
    );
  }
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return runWithPrivateTmp(npm, args, repo, env);
}

const FORWARDED = ['SIGTERM', 'SIGHUP'] as const;

/**
 * Runs a command whose temporary files all go to a folder of its own (TMPDIR), removed when it
 * ends however it ends: an interrupted review never gets to run its own clean-up, so this
 * process outlives it to do so. Same process group: a Ctrl-C in the terminal reaches the
 * command and its children by itself; SIGTERM/SIGHUP sent to this process alone are passed on.
 */
export function runWithPrivateTmp(
  file: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const tmp = mkdtempSync(join(tmpdir(), 'relvo-codex-review-'));
  const childEnv = { ...env, TMPDIR: tmp, TMP: tmp, TEMP: tmp };
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env: childEnv, stdio: 'inherit' });
    const onSigint = (): void => undefined; // the child got it too; wait for it to end
    const forward = (signal: NodeJS.Signals): void => {
      child.kill(signal);
    };
    process.on('SIGINT', onSigint);
    for (const s of FORWARDED) process.on(s, forward);
    const done = (): void => {
      process.off('SIGINT', onSigint);
      for (const s of FORWARDED) process.off(s, forward);
      rmSync(tmp, { recursive: true, force: true });
    };
    child.on('error', (error) => {
      done();
      reject(error);
    });
    child.on('close', (code, signal) => {
      done();
      resolve(code ?? (signal === 'SIGINT' ? EXIT.interrupted : EXIT.failed));
    });
  });
}
