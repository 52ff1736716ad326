/**
 * The allowlist is exactly the set of releases whose review passed: each allowlisted release has
 * a checked-in report (fixtures/compat/<version>.json and .md, written by `npm run review`) with
 * the verdict `pass` against the current baseline, and every passing report is allowlisted.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaChecksOf } from '../../scripts/lib/review/frame-schema.js';
import { readManifest, schemaJsonDir } from '../../scripts/lib/review/pin.js';
import {
  isPassing,
  readReport,
  renderIndex,
  renderMarkdown,
  verdictOf,
  type CompatReport,
} from '../../scripts/lib/review/report.js';
import {
  CODEX_APP_SERVER_MAX_VERSION,
  CODEX_APP_SERVER_MIN_VERSION,
  CODEX_APP_SERVER_VERSION,
  CODEX_SUPPORTED_APP_SERVER_VERSIONS,
} from '../../src/constants.js';
import { REPO_ROOT, SCHEMAS_DIR, TRANSCRIPTS_DIR } from '../support/paths.js';

const COMPAT = join(REPO_ROOT, 'fixtures', 'compat');
const ALLOWLIST: readonly string[] = CODEX_SUPPORTED_APP_SERVER_VERSIONS;

const reported = readdirSync(COMPAT)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length));
const reportOf = (version: string): CompatReport => {
  const report = readReport(COMPAT, version);
  if (report === undefined) throw new Error(`no report for ${version}`);
  return report;
};
const byVersion = (a: string, b: string): number =>
  a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });

describe('allowlist and review reports agree', () => {
  it('the allowlist is exactly the releases whose report passes', () => {
    const passing = reported.filter((v) => isPassing(reportOf(v))).sort(byVersion);
    expect([...ALLOWLIST].sort(byVersion)).toEqual(passing);
  });

  it('fixtures/compat/index.md is the summary of exactly these reports', () => {
    expect(readFileSync(join(COMPAT, 'index.md'), 'utf8')).toBe(
      renderIndex(reported.map(reportOf), ALLOWLIST),
    );
  });

  it('the window ends and the baseline come from the allowlist and the pinned devDependency', () => {
    const sorted = [...ALLOWLIST].sort(byVersion);
    // kept in release order: its first and last entries are the window's ends
    expect(ALLOWLIST).toEqual(sorted);
    expect(CODEX_APP_SERVER_MIN_VERSION).toBe(sorted[0]);
    expect(CODEX_APP_SERVER_MAX_VERSION).toBe(sorted.at(-1));
    expect(ALLOWLIST).toContain(CODEX_APP_SERVER_VERSION);
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(pkg.devDependencies['@openai/codex']).toBe(CODEX_APP_SERVER_VERSION);
  });

  it.each(reported)('%s: the report is consistent with its evidence', (version) => {
    const report = reportOf(version);
    expect(report.codexVersion).toBe(version);
    // the .md is a rendering of the .json, never edited by hand
    expect(readFileSync(join(COMPAT, `${version}.md`), 'utf8')).toBe(renderMarkdown(report));
    // the verdict follows from the evidence it sits on
    const { verdict, ...evidence } = report;
    expect(verdictOf(evidence)).toBe(verdict);
    // the schema it reviewed is the one pinned for that release
    const manifest = readManifest(SCHEMAS_DIR, version);
    expect(manifest?.digest).toBe(report.schema.digest);
    expect(manifest?.jsonDigest).toBe(report.schema.jsonDigest);
    expect(manifest?.tsDigest).toBe(report.schema.tsDigest);
    expect(manifest?.fileCount).toEqual(report.schema.fileCount);
    expect(manifest?.identicalTo ?? null).toBe(report.schema.identicalTo);
    // what the adapter published was compared for exactly the recorded scenarios
    if (report.published !== undefined) {
      expect(Object.keys(report.published).sort()).toEqual(Object.keys(report.scenarios).sort());
    }
    // a release pinned byte-identical to another was diffed and checked the same way
    const twin =
      report.schema.identicalTo === null ? undefined : reportOf(report.schema.identicalTo);
    if (twin !== undefined) {
      expect(report.schemaDiff).toEqual(twin.schemaDiff);
      expect(report.schemaChecks.problems).toEqual(twin.schemaChecks.problems);
    }
  });

  it("the baseline's report holds what its checked-in tree gives", () => {
    const report = reportOf(CODEX_APP_SERVER_VERSION);
    expect(report.schemaDiff).toEqual({
      methods: [],
      types: [],
      otherMethods: { added: [], removed: [] },
    });
    const tree = schemaJsonDir(SCHEMAS_DIR, CODEX_APP_SERVER_VERSION);
    expect(report.schemaChecks).toEqual(
      schemaChecksOf(CODEX_APP_SERVER_VERSION, tree, TRANSCRIPTS_DIR, CODEX_APP_SERVER_VERSION),
    );
  });

  it.each(ALLOWLIST)('%s: reviewed against the current baseline, with end-to-end evidence', (v) => {
    expect(existsSync(join(COMPAT, `${v}.md`))).toBe(true);
    const report = reportOf(v);
    expect(report.baseline).toBe(CODEX_APP_SERVER_VERSION);
    expect(report.e2e.failed).toBe(0);
    expect(report.e2e.passed).toBeGreaterThan(0);
    expect(report.handshake.reportedVersion).toBe(v);
    expect(report.schemaChecks.problems).toEqual([]);
    expect(report.schemaChecks.checked).toBeGreaterThan(0);
    // the evidence behind offering `session` on approvals (ADR-0003 amendment)
    const session = Object.entries(report.e2e.tests).filter(([name]) =>
      name.includes('approved for the session'),
    );
    expect(session).toEqual([[expect.any(String), 'passed']]);
  });

  it('a failing piece of evidence turns the verdict to fail, with the reason', () => {
    const { verdict: _verdict, ...evidence } = reportOf(CODEX_APP_SERVER_VERSION);
    expect(verdictOf(evidence)).toBe('pass');
    const failedTest = { ...evidence, e2e: { ...evidence.e2e, failed: 1 } };
    expect(verdictOf(failedTest)).toBe('fail (1 end-to-end test(s) failed)');
    const framesDiffer = (scenario: string) => ({
      ...evidence,
      scenarios: {
        ...evidence.scenarios,
        [scenario]: { status: 'differs' as const, differences: [] },
      },
    });
    // a scenario the adapter cannot replay is judged by its frames
    expect(verdictOf(framesDiffer('protocol_errors'))).toBe(
      'fail (frame sequence differs: protocol_errors)',
    );
    // a replayed one by what the adapter published: its frames are evidence
    expect(verdictOf(framesDiffer('text_turn'))).toBe('pass');
    const published = {
      ...evidence,
      published: {
        ...evidence.published,
        text_turn: { status: 'differs' as const, differences: ['+ run 1 run.message_delta x'] },
      },
    };
    expect(verdictOf(published)).toBe(
      'fail (published events differ: text_turn (run.message_delta))',
    );
    const rejected = {
      ...evidence,
      schemaChecks: { checked: 3, problems: ['handshake seq 2: v1/InitializeResponse.json: /'] },
    };
    expect(verdictOf(rejected)).toBe('fail (1 frame(s) rejected by its schema)');
    const unchecked = { ...evidence, schemaChecks: { checked: 0, problems: [] } };
    expect(verdictOf(unchecked)).toBe('fail (no frame checked against its schema)');
    const wrongVersion = {
      ...evidence,
      handshake: { ...evidence.handshake, reportedVersion: null },
    };
    expect(verdictOf(wrongVersion)).toMatch(/^fail \(the userAgent does not carry the release\)$/);
  });
});
