/**
 * npm run review -- <X.Y.Z> [--remeasure]
 * npm run review -- --all <from>..<to>      every stable release in the range, one after another
 * npm run review -- --latest                 every stable release newer than the newest reviewed
 *                                            one; exit 1 naming any that failed (a scheduled job)
 * npm run review -- --binary <path>         a native codex already on disk (files under its version)
 *
 * For each release: install it into the release cache (reused when present), pin its schema
 * (the manifest; the tree itself is checked in for the baseline only and kept in the cache for
 * any other release), check the adapter's recorded frames against that schema,
 * record every scenario, replay each recording and the baseline's to the adapter and compare what
 * it publishes (the verdict), compare the frame sequences with the baseline's (evidence), run
 * the real-binary end-to-end tier against it (CODEX_UNDER_TEST), measure the handshake (median
 * of 5), derive its capability table from its schema (ADR-0042), and write
 * fixtures/compat/<version>.json and .md with a verdict; then rewrite the allowlist in
 * src/constants.ts to the passing reports, the index, and the capability map
 * (src/capabilities/releases.ts). Recordings go to the
 * cache; the repository keeps the handshake of every release and every scenario of the baseline.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODEX_APP_SERVER_VERSION } from '../src/constants.js';
import { codexUserAgentVersion } from '../src/session/version-gate.js';
import { parseTranscript, type TranscriptLine } from '../src/testing/index.js';
import { serializeTranscript } from './lib/transcript-writer.js';
import { CLIENT_INFO, recordScenario } from './lib/recorder.js';
import {
  installRelease,
  PLAIN_RELEASE,
  releaseCachePrefix,
  reportedVersion,
} from './lib/release-binary.js';
import { capabilitiesOf } from './lib/review/capabilities.js';
import { runRealBinarySuite } from './lib/review/e2e.js';
import { schemaChecksOf } from './lib/review/frame-schema.js';
import { syncAllowlist } from './lib/review/allowlist.js';
import { writeCapabilityMap } from './lib/review/capability-map.js';
import { compareVersions, reviewLatest } from './lib/review/latest.js';
import { measureHandshake } from './lib/review/handshake-timing.js';
import { pinSchema, schemaJsonDir } from './lib/review/pin.js';
import { usePrivateTmp } from './lib/review/private-tmp.js';
import { verdictOf, writeIndex, writeReport, type CompatReport } from './lib/review/report.js';
import { loadSurface } from './lib/review/protocol-surface.js';
import { diffSurfaces } from './lib/review/schema-diff.js';
import { cacheSchemaTree } from './lib/review/schema-tree.js';
import {
  comparePublished,
  RECORDINGS_ON_DIFFERENCE,
  settleRecordings,
  type PublishedComparison,
} from './lib/review/published.js';
import { compareSequences, type ScenarioComparison } from './lib/review/sequences.js';
import { SCENARIOS } from './lib/scenarios.js';
import { summarizeRecording, type TranscriptIndex } from './lib/transcript-index.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const SCHEMAS = join(ROOT, 'fixtures', 'codex-app-server');
const TRANSCRIPTS = join(ROOT, 'fixtures', 'transcripts');
const COMPAT = join(ROOT, 'fixtures', 'compat');
const CONSTANTS = join(ROOT, 'src', 'constants.ts');
const CAPABILITY_MAP = join(ROOT, 'src', 'capabilities', 'releases.ts');
const USAGE =
  'usage: npm run review -- <X.Y.Z> | --all <from>..<to> | --latest | --binary <path>  [--remeasure]';

const log = (line: string): void => {
  console.log(line);
};

interface Target {
  readonly version: string;
  readonly binary: string;
}

/** Every version of @openai/codex the npm registry lists. */
function registryVersions(): unknown[] {
  const out = execFileSync('npm', ['view', '@openai/codex', 'versions', '--json'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 60_000,
  });
  const all = JSON.parse(out) as unknown;
  if (!Array.isArray(all)) throw new Error('npm view returned no version list');
  return all;
}

/** Every stable (plain X.Y.Z) release of @openai/codex in [from, to], oldest first. */
function stableReleases(from: string, to: string): string[] {
  return registryVersions()
    .filter((v): v is string => typeof v === 'string' && PLAIN_RELEASE.test(v))
    .filter((v) => compareVersions(v, from) >= 0 && compareVersions(v, to) <= 0)
    .sort(compareVersions);
}

const readTranscript = (path: string): TranscriptLine[] | undefined =>
  existsSync(path) ? parseTranscript(readFileSync(path, 'utf8')) : undefined;

/**
 * Records every scenario into the cache, keeps the repository's copies (all scenarios for the
 * baseline, the handshake for any other release) unless their normalised sequence changed, and
 * compares each with the baseline's recording.
 */
async function recordAndCompare(target: Target): Promise<{
  scenarios: Record<string, ScenarioComparison>;
  published: Record<string, PublishedComparison>;
}> {
  const cacheDir = join(releaseCachePrefix(target.version), 'transcripts');
  mkdirSync(cacheDir, { recursive: true });
  const isBaseline = target.version === CODEX_APP_SERVER_VERSION;
  const repoDir = join(TRANSCRIPTS, target.version);
  const indexPath = join(repoDir, 'index.json');
  const index: TranscriptIndex = existsSync(indexPath)
    ? (JSON.parse(readFileSync(indexPath, 'utf8')) as TranscriptIndex)
    : { codexVersion: target.version, binaryKind: 'native', scenarios: {} };
  let indexChanged = false;
  const results: Record<string, ScenarioComparison> = {};
  const published: Record<string, PublishedComparison> = {};
  for (const scenario of SCENARIOS) {
    const recording = await recordScenario(scenario, { binary: target.binary });
    const text = serializeTranscript(recording.lines);
    writeFileSync(join(cacheDir, `${scenario.name}.jsonl`), text);
    const keep = isBaseline || scenario.name === 'handshake';
    const repoFile = join(repoDir, `${scenario.name}.jsonl`);
    const existing = readTranscript(repoFile);
    if (keep && existing === undefined) {
      mkdirSync(repoDir, { recursive: true });
      writeFileSync(repoFile, text);
      index.scenarios[scenario.name] = summarizeRecording(scenario, recording);
      indexChanged = true;
    } else if (keep && existing !== undefined && !isBaseline) {
      // a release's own handshake: replaced only when its sequence changed
      if (compareSequences(existing, recording.lines).status !== 'same') {
        writeFileSync(repoFile, text);
        index.scenarios[scenario.name] = summarizeRecording(scenario, recording);
        indexChanged = true;
      }
    }
    const baseline = readTranscript(
      join(TRANSCRIPTS, CODEX_APP_SERVER_VERSION, `${scenario.name}.jsonl`),
    );
    results[scenario.name] =
      baseline === undefined
        ? {
            status: 'not recorded',
            differences: [
              `the ${CODEX_APP_SERVER_VERSION} baseline has no ${scenario.name} recording`,
            ],
          }
        : evidenceOnly(scenario, compareSequences(baseline, recording.lines));
    published[scenario.name] =
      baseline === undefined
        ? { status: 'not replayed', differences: [] }
        : await publishedOver(scenario, baseline, recording.lines, target);
    log(
      `  ${scenario.name}: ${recording.lines.length} frames, ${results[scenario.name]?.status ?? '?'}; ` +
        `published events ${published[scenario.name]?.status ?? '?'}`,
    );
  }
  if (indexChanged) {
    const sorted = Object.fromEntries(
      Object.entries(index.scenarios).sort(([a], [b]) => a.localeCompare(b)),
    );
    writeFileSync(indexPath, JSON.stringify({ ...index, scenarios: sorted }, null, 2) + '\n');
  }
  return { scenarios: results, published };
}

/** A difference in a scenario whose frames are evidence only: reported with why, never failing. */
function evidenceOnly(
  scenario: (typeof SCENARIOS)[number],
  comparison: ScenarioComparison,
): ScenarioComparison {
  if (scenario.evidenceOnly === undefined || comparison.status !== 'differs') return comparison;
  return {
    status: 'differs (evidence only)',
    differences: [`evidence only: ${scenario.evidenceOnly}`, ...comparison.differences],
  };
}

/**
 * The published comparison of a scenario, recorded again (up to RECORDINGS_ON_DIFFERENCE in all)
 * when its first recording differs, so that a race inside codex is told from a change.
 */
async function publishedOver(
  scenario: (typeof SCENARIOS)[number],
  baseline: readonly TranscriptLine[],
  first: readonly TranscriptLine[],
  target: Target,
): Promise<PublishedComparison> {
  const compare = (lines: readonly TranscriptLine[]) =>
    comparePublished(baseline, CODEX_APP_SERVER_VERSION, lines, target.version);
  const comparisons = [await compare(first)];
  while (
    comparisons.length < RECORDINGS_ON_DIFFERENCE &&
    comparisons.every((c) => c.status === 'differs')
  ) {
    const again = await recordScenario(scenario, { binary: target.binary });
    comparisons.push(await compare(again.lines));
  }
  return settleRecordings(comparisons);
}

function handshakeVersion(version: string): string | null {
  const lines = readTranscript(join(releaseCachePrefix(version), 'transcripts', 'handshake.jsonl'));
  const reply = lines?.find((l) => l.dir === 's2c' && l.frame.id === 1 && 'result' in l.frame);
  const ua = (reply?.frame.result as { userAgent?: unknown } | undefined)?.userAgent;
  return codexUserAgentVersion(ua, CLIENT_INFO.name) ?? null;
}

async function review(target: Target, remeasure: boolean): Promise<CompatReport> {
  log(`review ${target.version} (${target.binary})`);
  const isBaseline = target.version === CODEX_APP_SERVER_VERSION;
  const pinned = pinSchema(target.binary, target.version, SCHEMAS, isBaseline);
  try {
    log(
      `  schema ${pinned.manifest.digest.slice(0, 16)}…${pinned.changed ? ' (written)' : ' (unchanged)'}`,
    );
    const base = loadSurface(schemaJsonDir(SCHEMAS, CODEX_APP_SERVER_VERSION));
    const tree = join(pinned.generated, 'json');
    if (!isBaseline) cacheSchemaTree(target.version, tree, pinned.manifest.jsonDigest);
    const surface = loadSurface(tree);
    const schemaDiff = diffSurfaces(base, surface);
    const { scenarios, published } = await recordAndCompare(target);
    const schemaChecks = schemaChecksOf(
      target.version,
      tree,
      TRANSCRIPTS,
      CODEX_APP_SERVER_VERSION,
    );
    log(
      `  schema checks: ${schemaChecks.checked} frames, ${schemaChecks.problems.length} rejected`,
    );
    const timings = await measureHandshake(target.binary, 5);
    log(
      `  handshake (median of 5): init ${timings.initializeReplyMs} ms, thread ${timings.threadStartReplyMs} ms, exit ${timings.exitAfterStdinCloseMs} ms`,
    );
    log('  running the real-binary end-to-end tier…');
    const logFile = join(releaseCachePrefix(target.version), 'e2e.log');
    const e2e = runRealBinarySuite({ repoRoot: ROOT, binary: target.binary, logFile });
    log(`  e2e: ${e2e.passed} passed, ${e2e.failed} failed (log: ${logFile})`);
    const m = pinned.manifest;
    const draft = {
      codexVersion: target.version,
      baseline: CODEX_APP_SERVER_VERSION,
      schema: {
        digest: m.digest,
        jsonDigest: m.jsonDigest,
        tsDigest: m.tsDigest,
        identicalTo: m.identicalTo ?? null,
        fileCount: m.fileCount,
      },
      schemaDiff,
      schemaChecks,
      capabilities: capabilitiesOf(surface),
      scenarios,
      published,
      e2e,
      handshake: { reportedVersion: handshakeVersion(target.version), timings },
    };
    const { report, written } = writeReport(
      COMPAT,
      { ...draft, verdict: verdictOf(draft) },
      remeasure,
    );
    log(
      `  verdict: ${report.verdict}; fixtures/compat/${target.version}.{json,md} ${written ? 'written' : 'unchanged'}`,
    );
    return report;
  } finally {
    pinned.dispose();
  }
}

function readdirJson(): string[] {
  return readdirSync(COMPAT)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length));
}

async function main(): Promise<void> {
  usePrivateTmp();
  const args = process.argv.slice(2).filter((a) => a !== '--');
  const remeasure = args.includes('--remeasure');
  const rest = args.filter((a) => a !== '--remeasure');
  if (rest[0] === '--latest' && rest.length === 1) {
    const outcome = await reviewLatest({
      registryVersions,
      reviewed: () => (existsSync(COMPAT) ? readdirJson() : []),
      review: async (version) => {
        const binary = installRelease(version, log);
        if (reportedVersion(binary) !== version)
          throw new Error(`the ${version} binary reports another version`);
        return (await review({ version, binary }, remeasure)).verdict;
      },
      log,
    });
    if (outcome.reviewed.length > 0) await finish();
    process.exitCode = outcome.exitCode;
    return;
  }
  let targets: (() => Target)[];
  if (rest[0] === '--all' && rest.length === 2) {
    const match = /^(\d+\.\d+\.\d+)\.\.(\d+\.\d+\.\d+)$/.exec(rest[1] ?? '');
    if (match?.[1] === undefined || match[2] === undefined) throw new Error(USAGE);
    const versions = stableReleases(match[1], match[2]);
    log(`${versions.length} stable releases: ${versions.join(' ')}`);
    targets = versions.map((v) => () => ({ version: v, binary: installRelease(v, log) }));
  } else if (rest[0] === '--binary' && rest.length === 2 && rest[1] !== undefined) {
    const binary = resolve(rest[1]);
    targets = [() => ({ version: reportedVersion(binary), binary })];
  } else if (rest.length === 1 && rest[0] !== undefined && PLAIN_RELEASE.test(rest[0])) {
    const version = rest[0];
    targets = [() => ({ version, binary: installRelease(version, log) })];
  } else {
    throw new Error(USAGE);
  }
  const verdicts: string[] = [];
  for (const next of targets) {
    const target = next();
    if (reportedVersion(target.binary) !== target.version)
      throw new Error(`the ${target.version} binary reports another version`);
    const report = await review(target, remeasure);
    verdicts.push(`${target.version}: ${report.verdict}`);
  }
  log(verdicts.join('\n'));
  await finish();
}

/**
 * The allowlist, then the index (which shows it) and the capability map, from the reports as
 * they are now.
 */
async function finish(): Promise<void> {
  const allowlist = syncAllowlist(COMPAT, CONSTANTS, log);
  if (writeIndex(COMPAT, allowlist)) log('fixtures/compat/index.md written');
  if (await writeCapabilityMap(COMPAT, allowlist, CAPABILITY_MAP)) log(`${CAPABILITY_MAP} written`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : 'review failed');
  process.exitCode = 1;
});
