/**
 * npm run protocol:pin -- <X.Y.Z>
 * Installs @openai/codex@<version> into the release cache (scripts/lib/release-binary.ts) and
 * pins its generated schema into fixtures/codex-app-server/<version>/ (scripts/lib/review/pin.ts):
 * the manifest, and the JSON Schema tree for the baseline only; any other release's tree is kept
 * in the release cache, where the review regenerates it when it is missing.
 * `npm run review` does this and much more; this is the schema step alone.
 */
import { join } from 'node:path';
import { installRelease, PLAIN_RELEASE, reportedVersion } from './lib/release-binary.js';
import { pinSchema } from './lib/review/pin.js';
import { cacheSchemaTree } from './lib/review/schema-tree.js';
import { CODEX_APP_SERVER_VERSION } from '../src/constants.js';

function main(): void {
  const version = process.argv.slice(2).find((a) => a !== '--');
  if (version === undefined || !PLAIN_RELEASE.test(version)) {
    throw new Error('usage: npm run protocol:pin -- <X.Y.Z> (plain releases only)');
  }
  const binary = installRelease(version, console.log);
  if (reportedVersion(binary) !== version) throw new Error('binary reports an unexpected version');
  const isBaseline = version === CODEX_APP_SERVER_VERSION;
  const pinned = pinSchema(binary, version, join('fixtures', 'codex-app-server'), isBaseline);
  if (!isBaseline) {
    cacheSchemaTree(version, join(pinned.generated, 'json'), pinned.manifest.jsonDigest);
  }
  pinned.dispose();
  const m = pinned.manifest;
  console.log(
    `${version}: ${m.fileCount.json} json + ${m.fileCount.ts} ts files, digest ${m.digest}` +
      (m.identicalTo === undefined ? '' : ` (identical to ${m.identicalTo})`) +
      (isBaseline ? ' — tree checked in' : ' — manifest only') +
      (pinned.changed ? '' : ' — unchanged'),
  );
}

main();
