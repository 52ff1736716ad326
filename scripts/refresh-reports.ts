/**
 * Recomputes every compatibility report's schema diff, and the verdict that follows from it,
 * from the release's pinned schema and the adapter's surface today. A diff is a pure function of
 * those two: when the adapter starts reading a new method or type, the reports say so without
 * re-running a review. Everything measured (scenarios, end-to-end results, timings) is kept.
 *
 *   node --import tsx scripts/refresh-reports.ts
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODEX_APP_SERVER_VERSION, CODEX_SUPPORTED_APP_SERVER_VERSIONS } from '../src/constants.js';
import { schemaJsonDir } from './lib/review/pin.js';
import { readReport, verdictOf, writeIndex, writeReport } from './lib/review/report.js';
import { diffSurfaces, loadSurface } from './lib/review/schema-diff.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SCHEMAS = join(ROOT, 'fixtures', 'codex-app-server');
const COMPAT = join(ROOT, 'fixtures', 'compat');

const base = loadSurface(schemaJsonDir(SCHEMAS, CODEX_APP_SERVER_VERSION));
for (const file of readdirSync(COMPAT).filter((f) => f.endsWith('.json'))) {
  const version = file.slice(0, -'.json'.length);
  const previous = readReport(COMPAT, version);
  if (previous === undefined) continue;
  const { verdict: before, ...evidence } = previous;
  const draft = {
    ...evidence,
    schemaDiff: diffSurfaces(base, loadSurface(schemaJsonDir(SCHEMAS, version))),
  };
  const verdict = verdictOf(draft);
  const { written } = writeReport(COMPAT, { ...draft, verdict }, false);
  const change = verdict === before ? '' : ` (verdict was: ${before})`;
  process.stdout.write(`${version}: ${written ? 'rewritten' : 'unchanged'}, ${verdict}${change}\n`);
}
writeIndex(COMPAT, CODEX_SUPPORTED_APP_SERVER_VERSIONS);
