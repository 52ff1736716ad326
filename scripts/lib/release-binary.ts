/**
 * Where the evidence scripts find a given codex release: a per-release npm install under the
 * release cache (outside the repository, so node_modules is never touched), made on demand.
 * The cache is `$CODEX_RELEASE_CACHE`, else `~/.cache/relvo-codex`; `<cache>/<version>` is an
 * `npm install --prefix` of exactly `@openai/codex@<version>` and is reused when present.
 *
 * Several processes may want the same release at once (two test files on two workers, a review
 * beside a test run): an install is made in a private directory beside the cache entry and
 * renamed into place when complete, so nobody ever runs a binary another process is still
 * unpacking.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { codexReportedVersion } from '../../src/testing/codex-binary.js';
import { locateCodexBinary } from '../../src/testing/index.js';

export const PLAIN_RELEASE = /^\d+\.\d+\.\d+$/;
export const RELEASE_CACHE_ENV = 'CODEX_RELEASE_CACHE';

export function releaseCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env[RELEASE_CACHE_ENV];
  return configured !== undefined && configured !== ''
    ? resolve(configured)
    : join(homedir(), '.cache', 'relvo-codex');
}

export function releaseCachePrefix(version: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(releaseCacheRoot(env), version);
}

/** The cached native binary of exactly `version`, or undefined when it is not installed. */
export function findReleaseBinary(version: string): string | undefined {
  const cached = locateCodexBinary({ kind: 'native', from: releaseCachePrefix(version) });
  return cached.found && cached.version === version ? cached.path : undefined;
}

/** How long one release install may take before it is abandoned (a download of ~100 MB). */
export const INSTALL_TIMEOUT_MS = 300_000;

/** Installs exactly `@openai/codex@<version>` under `prefix`; throws when npm fails. */
export type ReleaseInstaller = (version: string, prefix: string, timeoutMs: number) => void;

const npmInstall: ReleaseInstaller = (version, prefix, timeoutMs) => {
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      // a cached package is not downloaded again
      '--prefer-offline',
      `@openai/codex@${version}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], timeout: timeoutMs, killSignal: 'SIGKILL' },
  );
};

/**
 * Moves a finished install into place. Another process may have put a complete one there first
 * (then it is kept and ours dropped), or a killed run may have left an incomplete one (then it is
 * replaced).
 */
function publish(version: string, staging: string, prefix: string): string {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      renameSync(staging, prefix);
      break;
    } catch {
      if (findReleaseBinary(version) !== undefined) break;
      rmSync(prefix, { recursive: true, force: true });
    }
  }
  rmSync(staging, { recursive: true, force: true });
  const installed = findReleaseBinary(version);
  if (installed === undefined) throw new Error(`install of ${version} did not produce a binary`);
  return installed;
}

/**
 * The cached native binary of `version`, installing it from the npm registry when missing. A
 * failed or timed-out install throws an error that says what was tried and how to retry.
 */
export function installRelease(
  version: string,
  log: (line: string) => void,
  timeoutMs = INSTALL_TIMEOUT_MS,
  install: ReleaseInstaller = npmInstall,
): string {
  if (!PLAIN_RELEASE.test(version)) throw new Error(`not a plain release: ${version}`);
  const found = findReleaseBinary(version);
  if (found !== undefined) return found;
  const prefix = releaseCachePrefix(version);
  const staging = `${prefix}.installing-${String(process.pid)}-${randomBytes(4).toString('hex')}`;
  mkdirSync(staging, { recursive: true });
  log(`installing @openai/codex@${version} into ${prefix}`);
  try {
    install(version, staging, timeoutMs);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `could not install @openai/codex@${version} from the npm registry into ${prefix} ` +
        `(is the registry reachable?); retry with \`npm run codex:install -- ${version}\``,
      { cause: error },
    );
  }
  return publish(version, staging, prefix);
}

/** `X.Y.Z` from `codex --version`; the package.json alone could lie. */
export function reportedVersion(binary: string): string {
  const version = codexReportedVersion(binary);
  if (version === undefined) throw new Error('binary printed an unexpected --version line');
  return version;
}
