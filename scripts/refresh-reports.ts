/**
 * Recomputes every compatibility report's schema evidence, and the verdict that follows from it,
 * from the release's pinned schema and the adapter's surface today: the schema diff against the
 * baseline, the adapter's recorded frames under the release's schema, the capability table
 * (ADR-0042; and the capability map generated from it); and what the adapter
 * publishes for the release's recordings, when the release cache holds them. Each is a pure
 * function of those inputs: when the adapter starts reading a new method or type, the reports say so
 * without re-running a review. A release's schema tree is regenerated from the release cache when
 * it is not there (only the baseline's is checked in). Everything measured (scenarios,
 * end-to-end results, timings) is kept.
 *
 *   node --import tsx scripts/refresh-reports.ts
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODEX_APP_SERVER_VERSION } from '../src/constants.js';
import { parseTranscript, type TranscriptLine } from '../src/testing/index.js';
import { releaseCachePrefix } from './lib/release-binary.js';
import { syncAllowlist } from './lib/review/allowlist.js';
import { capabilitiesOf } from './lib/review/capabilities.js';
import { writeCapabilityMap } from './lib/review/capability-map.js';
import { schemaChecksOf } from './lib/review/frame-schema.js';
import { schemaJsonDir } from './lib/review/pin.js';
import { usePrivateTmp } from './lib/review/private-tmp.js';
import { comparePublished, type PublishedComparison } from './lib/review/published.js';
import { readReport, verdictOf, writeIndex, writeReport } from './lib/review/report.js';
import { loadSurface } from './lib/review/protocol-surface.js';
import { diffSurfaces } from './lib/review/schema-diff.js';
import { schemaTreeOf } from './lib/review/schema-tree.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SCHEMAS = join(ROOT, 'fixtures', 'codex-app-server');
const TRANSCRIPTS = join(ROOT, 'fixtures', 'transcripts');
const COMPAT = join(ROOT, 'fixtures', 'compat');

usePrivateTmp('relvo-refresh-');
const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const readRecording = (path: string): TranscriptLine[] | undefined =>
  existsSync(path) ? parseTranscript(readFileSync(path, 'utf8')) : undefined;

/**
 * The published-event comparisons again, from the release's recordings in the release cache
 * (the review leaves them there); without them the report's comparisons are kept.
 */
async function republished(
  version: string,
  previous: Readonly<Record<string, PublishedComparison>>,
): Promise<Record<string, PublishedComparison>> {
  const out: Record<string, PublishedComparison> = {};
  for (const [scenario, kept] of Object.entries(previous)) {
    const file = `${scenario}.jsonl`;
    const recorded = readRecording(join(releaseCachePrefix(version), 'transcripts', file));
    const baseline = readRecording(join(TRANSCRIPTS, CODEX_APP_SERVER_VERSION, file));
    out[scenario] =
      recorded === undefined || baseline === undefined
        ? kept
        : await comparePublished(baseline, CODEX_APP_SERVER_VERSION, recorded, version);
  }
  return out;
}

const base = loadSurface(schemaJsonDir(SCHEMAS, CODEX_APP_SERVER_VERSION));
for (const file of readdirSync(COMPAT).filter((f) => f.endsWith('.json'))) {
  const version = file.slice(0, -'.json'.length);
  const previous = readReport(COMPAT, version);
  if (previous === undefined) continue;
  const tree = schemaTreeOf(version, { schemasRoot: SCHEMAS, log });
  const surface = loadSurface(tree);
  // the key order of a report the review writes
  const draft = {
    codexVersion: previous.codexVersion,
    baseline: previous.baseline,
    schema: previous.schema,
    schemaDiff: diffSurfaces(base, surface),
    schemaChecks: schemaChecksOf(version, tree, TRANSCRIPTS, CODEX_APP_SERVER_VERSION),
    capabilities: capabilitiesOf(surface),
    scenarios: previous.scenarios,
    ...(previous.published === undefined
      ? {}
      : { published: await republished(version, previous.published) }),
    e2e: previous.e2e,
    handshake: previous.handshake,
  };
  const verdict = verdictOf(draft);
  const { written } = writeReport(COMPAT, { ...draft, verdict }, false);
  const change = verdict === previous.verdict ? '' : ` (verdict was: ${previous.verdict})`;
  log(`${version}: ${written ? 'rewritten' : 'unchanged'}, ${verdict}${change}`);
}
const allowlist = syncAllowlist(COMPAT, join(ROOT, 'src', 'constants.ts'), log);
writeIndex(COMPAT, allowlist);
const map = join(ROOT, 'src', 'capabilities', 'releases.ts');
if (await writeCapabilityMap(COMPAT, allowlist, map)) log(`${map} written`);
