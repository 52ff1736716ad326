/**
 * Where the evidence scripts find a given codex release: the pinned devDependency when it is
 * that release, else the per-release install under ~/.cache/relvo-codex/<version> that
 * `npm run protocol:pin` makes (outside the repository, so node_modules is never touched).
 */
import { execFileSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { locateCodexBinary } from '../../src/testing/index.js';

export const PLAIN_RELEASE = /^\d+\.\d+\.\d+$/;

export function releaseCachePrefix(version: string): string {
  return join(homedir(), '.cache', 'relvo-codex', version);
}

/** The native binary of exactly `version`, or undefined when neither location has it. */
export function findReleaseBinary(version: string): string | undefined {
  const pinned = locateCodexBinary({ kind: 'native' });
  if (pinned.found && pinned.version === version) return pinned.path;
  const cached = locateCodexBinary({ kind: 'native', from: releaseCachePrefix(version) });
  return cached.found && cached.version === version ? cached.path : undefined;
}

/** `X.Y.Z` from `codex --version` (`codex-cli X.Y.Z`); the package.json alone could lie. */
export function reportedVersion(binary: string): string {
  const out = execFileSync(binary, ['--version'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
  const match = /^codex-cli (\d+\.\d+\.\d+)$/.exec(out);
  if (match?.[1] === undefined) throw new Error('binary printed an unexpected --version line');
  return match[1];
}
