/**
 * fixtures/compat/<version>.json and .md: the evidence of one release's review. Everything in
 * them is a function of the release and the baseline, except the handshake timings; those are
 * measured afresh on every run but written only when the rest of the report changed (or on
 * `--remeasure`), so re-running a review that finds the same evidence is a no-op diff.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CapabilityTable } from '../../../src/capabilities/features.js';
import type { E2eResult } from './e2e.js';
import type { SchemaChecks } from './frame-schema.js';
import type { HandshakeTimings } from './handshake-timing.js';
import { eventOf, type PublishedComparison } from './published.js';
import { ADAPTER_SURFACE } from './protocol-surface.js';
import type { SchemaDiff } from './schema-diff.js';
import type { ScenarioComparison } from './sequences.js';

export interface HandshakeCheck {
  /** The userAgent's version as the adapter's gate parses it. */
  readonly reportedVersion: string | null;
  readonly timings: HandshakeTimings;
}

export interface CompatReport {
  readonly codexVersion: string;
  readonly baseline: string;
  readonly schema: {
    readonly digest: string;
    readonly jsonDigest: string;
    readonly tsDigest: string;
    readonly identicalTo: string | null;
    readonly fileCount: { readonly json: number; readonly ts: number };
  };
  readonly schemaDiff: SchemaDiff;
  /** The baseline's adapter frames and this release's handshake under its schema. */
  readonly schemaChecks: SchemaChecks;
  /**
   * Per optional feature, its needs and those this release's schema does not declare (ADR-0042).
   * Absent in a report written before the table existed. Evidence for the session gate, not an
   * input to the verdict: a release may lack an optional feature and still pass.
   */
  readonly capabilities?: CapabilityTable;
  readonly scenarios: Readonly<Record<string, ScenarioComparison>>;
  /**
   * What the adapter publishes for each recording against the baseline's. Absent in a report
   * written before the review replayed recordings to the adapter: its verdict is by frames.
   */
  readonly published?: Readonly<Record<string, PublishedComparison>>;
  readonly e2e: E2eResult;
  readonly handshake: HandshakeCheck;
  readonly verdict: string;
}

export function verdictOf(report: Omit<CompatReport, 'verdict'>): string {
  const why: string[] = [];
  if (report.handshake.reportedVersion !== report.codexVersion)
    why.push('the userAgent does not carry the release');
  const removed = report.schemaDiff.methods.filter(
    (m) =>
      /^(client request|client notification|notification) removed: /.test(m) ||
      ADAPTER_SURFACE.bridgedServerRequests.some((b) => m === `server request removed: ${b}`),
  );
  if (removed.length > 0) why.push(`${removed.length} method(s) the adapter uses removed`);
  if (report.schemaChecks.problems.length > 0)
    why.push(`${report.schemaChecks.problems.length} frame(s) rejected by its schema`);
  if (report.schemaChecks.checked === 0) why.push('no frame checked against its schema');
  const published = report.published;
  const failing = Object.entries(published ?? {})
    .filter(([, c]) => c.status === 'differs' || c.status === 'replay failed')
    .map(([name, c]) =>
      c.status === 'differs'
        ? `${name} (${[...new Set(c.differences.map(eventOf))].join(', ')})`
        : `${name} (replay failed)`,
    );
  if (failing.length > 0) why.push(`published events differ: ${failing.join(', ')}`);
  // a scenario the adapter cannot replay (or a report from before the replay) is judged by frames
  const differing = Object.entries(report.scenarios)
    .filter(([, c]) => c.status === 'differs' || c.status === 'not recorded')
    .filter(([name]) => (published?.[name]?.status ?? 'not replayed') === 'not replayed')
    .map(([name]) => name);
  if (differing.length > 0) why.push(`frame sequence differs: ${differing.join(', ')}`);
  if (report.e2e.failed > 0) why.push(`${report.e2e.failed} end-to-end test(s) failed`);
  if (report.e2e.passed === 0) why.push('no end-to-end test passed');
  return why.length === 0 ? 'pass' : `fail (${why.join('; ')})`;
}

export const isPassing = (report: Pick<CompatReport, 'verdict'>): boolean =>
  report.verdict === 'pass';

const bullet = (lines: readonly string[], none: string): string =>
  lines.length === 0 ? `- ${none}\n` : lines.map((l) => `- ${l}\n`).join('');

export function renderMarkdown(r: CompatReport): string {
  const diffLines = [
    ...r.schemaDiff.methods,
    ...r.schemaDiff.types.map((t) => `\`${t.type}\`: ${t.change}`),
  ];
  const scenarioRows = Object.entries(r.scenarios)
    .map(([name, c]) => `| ${name} | ${c.status} |\n`)
    .join('');
  const publishedRows = Object.entries(r.published ?? {})
    .map(([name, c]) => `| ${name} | ${c.status} | ${r.scenarios[name]?.status ?? '—'} |\n`)
    .join('');
  const publishedDetails = Object.entries(r.published ?? {})
    .filter(([, c]) => c.differences.length > 0)
    .map(([name, c]) => `\n**${name}**\n\n\`\`\`\n${c.differences.join('\n')}\n\`\`\`\n`)
    .join('');
  const publishedSection =
    r.published === undefined
      ? `\n## What the adapter publishes\n\nNot replayed: this report predates the replay of ` +
        `recordings to the adapter; its verdict is by frame sequences.\n`
      : `\n## What the adapter publishes, against the ${r.baseline} recordings\n\n` +
        `Each recording replayed to \`createCodexProvider\` (the host's part taken from the ` +
        `recorded client frames); the events and run ends it publishes, ids and timings removed, ` +
        `message deltas joined, compared in order. This decides the verdict; a scenario the ` +
        `adapter cannot replay (raw protocol probes, resumed threads) is judged by its frames.\n\n` +
        `| scenario | published events | frames |\n|---|---|---|\n${publishedRows}${publishedDetails}`;
  const scenarioDetails = Object.entries(r.scenarios)
    .filter(([, c]) => c.differences.length > 0)
    .map(([name, c]) => `\n**${name}**\n\n\`\`\`\n${c.differences.join('\n')}\n\`\`\`\n`)
    .join('');
  const e2eRows = Object.entries(r.e2e.tests)
    .map(([name, outcome]) => `| ${name.replace(/\|/g, '\\|')} | ${outcome} |\n`)
    .join('');
  const t = r.handshake.timings;
  return (
    `# codex ${r.codexVersion}: compatibility review\n\n` +
    `Generated by \`npm run review -- ${r.codexVersion}\` from the real binary; do not edit.\n\n` +
    `**Verdict: ${r.verdict}**\n\n` +
    `Baseline: ${r.baseline}.\n\n` +
    `## Schema\n\n` +
    `- digest \`${r.schema.digest}\` (json \`${r.schema.jsonDigest.slice(0, 16)}…\`, ` +
    `ts \`${r.schema.tsDigest.slice(0, 16)}…\`)\n` +
    `- ${r.schema.fileCount.json} JSON Schema files, ${r.schema.fileCount.ts} TypeScript files` +
    (r.schema.identicalTo === null ? '\n' : ` — byte-identical to ${r.schema.identicalTo}\n`) +
    `\n## Changes against ${r.baseline} in what the adapter reads or writes\n\n` +
    bullet(diffLines, 'none') +
    `\nOther methods (the adapter neither sends nor reads them): ` +
    `${r.schemaDiff.otherMethods.added.length} added, ${r.schemaDiff.otherMethods.removed.length} removed` +
    (r.schemaDiff.otherMethods.added.length + r.schemaDiff.otherMethods.removed.length === 0
      ? '.\n'
      : `:\n\n` +
        bullet(
          [
            ...r.schemaDiff.otherMethods.added.map((m) => `added ${m}`),
            ...r.schemaDiff.otherMethods.removed.map((m) => `removed ${m}`),
          ],
          'none',
        )) +
    `\n## Frames under this release's schema\n\n` +
    `${r.schemaChecks.checked} frames checked (the adapter's frames in the ${r.baseline} ` +
    `recordings, and this release's own handshake replies)` +
    (r.schemaChecks.problems.length === 0
      ? '; all accepted.\n'
      : `; rejected:\n\n${bullet(r.schemaChecks.problems, 'none')}`) +
    publishedSection +
    capabilitiesSection(r) +
    `\n## Frame sequences against the ${r.baseline} recordings\n\n` +
    `Normalised (ids, texts, timings and delta counts removed; known races sorted); the ` +
    `notifications the adapter ignores are compared as counts.` +
    (r.published === undefined
      ? '\n\n'
      : ` Evidence: they decide the verdict only for a scenario not replayed.\n\n`) +
    `| scenario | result |\n|---|---|\n${scenarioRows}${scenarioDetails}` +
    `\n## End-to-end tests on this binary\n\n` +
    `${r.e2e.passed} passed, ${r.e2e.failed} failed, ${r.e2e.skipped} skipped.\n\n` +
    `| test | result |\n|---|---|\n${e2eRows}` +
    `\n## Handshake\n\n` +
    `- userAgent version as the gate reads it: ${r.handshake.reportedVersion ?? '(none)'}\n` +
    `- median of ${t.runs} runs (native binary, ms): spawn → initialize reply ${t.initializeReplyMs}, ` +
    `spawn → thread/start reply ${t.threadStartReplyMs}, stdin close → exit ${t.exitAfterStdinCloseMs}. ` +
    `Measured when this evidence was first produced; a re-run that finds the same evidence keeps ` +
    `these numbers (\`--remeasure\` replaces them).\n`
  );
}

function capabilitiesSection(r: CompatReport): string {
  if (r.capabilities === undefined) return '';
  const rows = Object.entries(r.capabilities)
    .map(
      ([feature, c]) =>
        `| \`${feature}\` | ${c.missing.length === 0 ? 'yes' : 'no'} | ` +
        `${c.needs.map((n) => `\`${n}\``).join(', ')} | ` +
        `${c.missing.length === 0 ? '—' : c.missing.map((n) => `\`${n}\``).join(', ')} |\n`,
    )
    .join('');
  return (
    `\n## Capabilities\n\n` +
    `Each optional feature and what it needs of the protocol, looked up in this release's ` +
    `generated JSON Schema (\`M\`: the method; \`M.f\`: a params field; \`M.f=v\`: a params ` +
    `variant with that value; \`M:result.f\`: a result field). A session that asks for a ` +
    `feature this release lacks is refused at \`createSession\` (ADR-0042).\n\n` +
    `| feature | carried | needs | missing |\n|---|---|---|---|\n${rows}`
  );
}

export function reportPaths(compatRoot: string, version: string): { json: string; md: string } {
  return { json: join(compatRoot, `${version}.json`), md: join(compatRoot, `${version}.md`) };
}

export function readReport(compatRoot: string, version: string): CompatReport | undefined {
  const { json } = reportPaths(compatRoot, version);
  return existsSync(json) ? (JSON.parse(readFileSync(json, 'utf8')) as CompatReport) : undefined;
}

const withoutTimings = (r: CompatReport): string =>
  JSON.stringify({ ...r, handshake: { ...r.handshake, timings: null } });

/**
 * Writes the report unless only the timings differ from the checked-in one (then the checked-in
 * timings stay). Returns the report as written (or kept).
 */
export function writeReport(
  compatRoot: string,
  fresh: CompatReport,
  remeasure: boolean,
): { report: CompatReport; written: boolean } {
  const previous = readReport(compatRoot, fresh.codexVersion);
  const report =
    previous !== undefined && !remeasure && withoutTimings(previous) === withoutTimings(fresh)
      ? { ...fresh, handshake: { ...fresh.handshake, timings: previous.handshake.timings } }
      : fresh;
  const paths = reportPaths(compatRoot, fresh.codexVersion);
  const json = JSON.stringify(report, null, 2) + '\n';
  const md = renderMarkdown(report);
  const same =
    existsSync(paths.json) &&
    existsSync(paths.md) &&
    readFileSync(paths.json, 'utf8') === json &&
    readFileSync(paths.md, 'utf8') === md;
  if (!same) {
    mkdirSync(compatRoot, { recursive: true });
    writeFileSync(paths.json, json);
    writeFileSync(paths.md, md);
  }
  return { report, written: !same };
}

const byVersion = (a: string, b: string): number =>
  a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });

const featuresCarried = (r: CompatReport): string => {
  const checks = Object.values(r.capabilities ?? {});
  return checks.length === 0
    ? '—'
    : `${checks.filter((c) => c.missing.length === 0).length}/${checks.length}`;
};

/** fixtures/compat/index.md: one row per report, generated from the reports alone. */
export function renderIndex(
  reports: readonly CompatReport[],
  allowlist: readonly string[],
): string {
  const rows = [...reports]
    .sort((a, b) => byVersion(a.codexVersion, b.codexVersion))
    .map((r) => {
      const t = r.handshake.timings;
      const scenarios = Object.values(r.scenarios);
      const same = scenarios.filter((c) => c.status === 'same').length;
      const replayed = Object.values(r.published ?? {}).filter((c) => c.status !== 'not replayed');
      const publishedSame =
        r.published === undefined
          ? '— (by frames)'
          : `${replayed.filter((c) => c.status === 'same').length}/${replayed.length}`;
      return (
        `| [${r.codexVersion}](${r.codexVersion}.md) | ${r.verdict} | ` +
        `${allowlist.includes(r.codexVersion) ? 'yes' : 'no'} | ` +
        `\`${r.schema.digest.slice(0, 12)}\`${r.schema.identicalTo === null ? '' : ` (≡ ${r.schema.identicalTo})`} | ` +
        `${r.schemaDiff.methods.length + r.schemaDiff.types.length} | ` +
        `${publishedSame} | ${same}/${scenarios.length} | ` +
        `${r.e2e.passed}/${r.e2e.passed + r.e2e.failed} | ` +
        `${featuresCarried(r)} | ` +
        `${t.initializeReplyMs} / ${t.threadStartReplyMs} / ${t.exitAfterStdinCloseMs} |\n`
      );
    })
    .join('');
  return (
    `# Reviewed codex releases\n\n` +
    `Generated by \`npm run review\` from the reports in this folder; do not edit.\n\n` +
    `| release | verdict | allowlisted | schema digest | changes vs baseline | published same | frames same | e2e passed | features carried | handshake ms (init / thread / exit) |\n` +
    `|---|---|---|---|---|---|---|---|---|---|\n${rows}` +
    `\nChanges are counted in what the adapter reads or writes. "published same" counts the ` +
    `replayed scenarios for which the adapter publishes what it publishes for the baseline's ` +
    `recording (this decides the verdict); "— (by frames)" marks a report written before that ` +
    `replay, whose verdict is by frame sequences. "frames same" counts the recorded scenarios ` +
    `whose normalised frame sequence equals the baseline's: evidence, deciding only for a ` +
    `scenario the adapter cannot replay. "features carried" counts the optional features whose ` +
    `needs the release's schema declares (its Capabilities table, ADR-0042). ` +
    `Handshake timings are medians of 5 runs of the native ` +
    `binary, measured when each report was first written.\n`
  );
}

/** Rewrites fixtures/compat/index.md when the reports say something new; returns whether it did. */
export function writeIndex(compatRoot: string, allowlist: readonly string[]): boolean {
  const reports = readdirSync(compatRoot)
    .filter((f) => f.endsWith('.json'))
    .map((f) => readReport(compatRoot, f.slice(0, -'.json'.length)))
    .filter((r): r is CompatReport => r !== undefined);
  const text = renderIndex(reports, allowlist);
  const path = join(compatRoot, 'index.md');
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return false;
  writeFileSync(path, text);
  return true;
}
