/**
 * npm run codex:install -- <X.Y.Z> | --window-first
 * Installs one codex release into the release cache (scripts/lib/release-binary.ts), reusing it
 * when present. `--window-first` installs the oldest allowlisted release, whose real handshake
 * the test suite checks (test/protocol/window-ends.test.ts installs it itself when missing).
 */
import { CODEX_APP_SERVER_MIN_VERSION } from '../src/constants.js';
import { installRelease, PLAIN_RELEASE, reportedVersion } from './lib/release-binary.js';

const arg = process.argv.slice(2).find((a) => a !== '--');
const version = arg === '--window-first' ? CODEX_APP_SERVER_MIN_VERSION : arg;
if (version === undefined || !PLAIN_RELEASE.test(version)) {
  console.error('usage: npm run codex:install -- <X.Y.Z> | --window-first');
  process.exitCode = 1;
} else {
  const binary = installRelease(version, console.log);
  if (reportedVersion(binary) !== version) throw new Error('binary reports another version');
  console.log(`codex ${version}: ${binary}`);
}
