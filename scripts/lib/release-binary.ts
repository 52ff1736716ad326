/**
 * Where the evidence scripts find a given codex release: a per-release npm install under the
 * release cache (outside the repository, so node_modules is never touched), made on demand.
 * The cache is `$CODEX_RELEASE_CACHE`, else `~/.cache/relvo-codex`; `<cache>/<version>` is an
 * `npm install --prefix` of exactly `@openai/codex@<version>` and is reused when present.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
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

/**
 * The cached native binary of `version`, installing it from the npm registry when missing. A
 * failed or timed-out install throws an error that says what was tried and how to retry.
 */
export function installRelease(
  version: string,
  log: (line: string) => void,
  timeoutMs = INSTALL_TIMEOUT_MS,
): string {
  if (!PLAIN_RELEASE.test(version)) throw new Error(`not a plain release: ${version}`);
  const found = findReleaseBinary(version);
  if (found !== undefined) return found;
  const prefix = releaseCachePrefix(version);
  mkdirSync(prefix, { recursive: true });
  log(`installing @openai/codex@${version} into ${prefix}`);
  try {
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
  } catch (error) {
    throw new Error(
      `could not install @openai/codex@${version} from the npm registry into ${prefix} ` +
        `(is the registry reachable?); retry with \`npm run codex:install -- ${version}\``,
      { cause: error },
    );
  }
  const installed = findReleaseBinary(version);
  if (installed === undefined) throw new Error(`install of ${version} did not produce a binary`);
  return installed;
}

/** `X.Y.Z` from `codex --version`; the package.json alone could lie. */
export function reportedVersion(binary: string): string {
  const version = codexReportedVersion(binary);
  if (version === undefined) throw new Error('binary printed an unexpected --version line');
  return version;
}
