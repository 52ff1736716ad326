/**
 * src/capabilities/releases.ts, generated from the reports' capability tables (ADR-0042): per
 * allowlisted release, the optional features its schema carries. One source of truth: the
 * reports; the review and the report refresh rewrite the map after them, and a test checks that
 * the committed map is what the reports give.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { capabilityTableSchema } from '../../../src/capabilities/features.js';
import { carriedFeatures } from './capabilities.js';
import { compareVersions } from './latest.js';
import { readReport } from './report.js';

/** Release → the features it carries, for every allowlisted release; throws when one has none. */
export function capabilityMapOf(
  compatRoot: string,
  allowlist: readonly string[],
): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const version of [...allowlist].sort(compareVersions)) {
    const table = capabilityTableSchema.safeParse(readReport(compatRoot, version)?.capabilities);
    if (!table.success) {
      throw new Error(
        `the report of ${version} has no capability table; refresh it with ` +
          '`node --import tsx scripts/refresh-reports.ts`',
      );
    }
    map[version] = carriedFeatures(table.data);
  }
  return map;
}

const quoted = (items: readonly string[]): string => items.map((i) => `'${i}'`).join(', ');

/** The generated module's source (before formatting): identical feature sets are named once. */
export function renderCapabilityMap(map: Readonly<Record<string, readonly string[]>>): string {
  const sets: string[] = [];
  const rows = Object.entries(map).map(([version, features]) => {
    const key = quoted(features);
    let index = sets.indexOf(key);
    if (index < 0) index = sets.push(key) - 1;
    return `  '${version}': CARRIES_${index + 1},`;
  });
  return (
    `/**\n` +
    ` * Generated from the capability tables of fixtures/compat/<version>.json by\n` +
    ` * scripts/lib/review/capability-map.ts (\`npm run review\`, scripts/refresh-reports.ts); do\n` +
    ` * not edit. Per allowlisted release, the optional features its schema carries (ADR-0042).\n` +
    ` */\n` +
    `import type { CodexSupportedAppServerVersion } from '../constants.js';\n` +
    `import type { CodexFeature } from './features.js';\n\n` +
    sets.map((s, i) => `const CARRIES_${i + 1}: readonly CodexFeature[] = [${s}];\n`).join('') +
    `\nexport const CODEX_RELEASE_CAPABILITIES: Readonly<\n` +
    `  Record<CodexSupportedAppServerVersion, readonly CodexFeature[]>\n` +
    `> = {\n${rows.join('\n')}\n};\n`
  );
}

/** Rewrites the map at `path` when the reports say something new; returns whether it did. */
export async function writeCapabilityMap(
  compatRoot: string,
  allowlist: readonly string[],
  path: string,
): Promise<boolean> {
  const config = (await resolveConfig(path)) ?? {};
  const text = await format(renderCapabilityMap(capabilityMapOf(compatRoot, allowlist)), {
    ...config,
    filepath: path,
  });
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return false;
  writeFileSync(path, text);
  return true;
}
