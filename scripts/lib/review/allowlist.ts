/**
 * The allowlist in src/constants.ts is the set of releases whose report passes: the review and
 * the report refresh rewrite it (and the window's ends) from the reports after they change them.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { CODEX_SUPPORTED_APP_SERVER_VERSIONS } from '../../../src/constants.js';
import { compareVersions } from './latest.js';
import { isPassing, readReport } from './report.js';

const ALLOWLIST = /(export const CODEX_SUPPORTED_APP_SERVER_VERSIONS = \[)[^\]]*(\] as const;)/;
const MIN = /(export const CODEX_APP_SERVER_MIN_VERSION = ')[^']*(';)/;
const MAX = /(export const CODEX_APP_SERVER_MAX_VERSION = ')[^']*(';)/;

/**
 * src/constants.ts with the allowlist, and the window's ends, set to `passing` (release order).
 * Throws when the file does not have the shape this rewrites, rather than guess.
 */
export function rewriteAllowlist(source: string, passing: readonly string[]): string {
  const sorted = [...passing].sort(compareVersions);
  const first = sorted[0];
  const last = sorted.at(-1);
  if (first === undefined || last === undefined) throw new Error('no release passes its review');
  if (!ALLOWLIST.test(source) || !MIN.test(source) || !MAX.test(source)) {
    throw new Error('src/constants.ts does not declare the allowlist as expected');
  }
  const entries = sorted.map((v) => `\n  '${v}',`).join('');
  return source
    .replace(ALLOWLIST, `$1${entries}\n$2`)
    .replace(MIN, `$1${first}$2`)
    .replace(MAX, `$1${last}$2`);
}

/** Rewrites the allowlist in `constantsPath` to the passing reports; returns the allowlist. */
export function syncAllowlist(
  compatRoot: string,
  constantsPath: string,
  log: (line: string) => void,
): readonly string[] {
  const passing = readdirSync(compatRoot)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .filter((v) => {
      const r = readReport(compatRoot, v);
      return r !== undefined && isPassing(r);
    })
    .sort(compareVersions);
  // the file as it is now (this process may have loaded an older copy of the constants)
  const source = readFileSync(constantsPath, 'utf8');
  const next = rewriteAllowlist(source, passing);
  if (next === source) {
    log('allowlist matches the passing reports');
    return passing;
  }
  const allowed: readonly string[] = CODEX_SUPPORTED_APP_SERVER_VERSIONS;
  const added = passing.filter((v) => !allowed.includes(v));
  const dropped = allowed.filter((v) => !passing.includes(v));
  writeFileSync(constantsPath, next);
  log(
    'allowlist in src/constants.ts rewritten to the passing reports' +
      (added.length > 0 ? `; added ${added.join(', ')}` : '') +
      (dropped.length > 0 ? `; dropped ${dropped.join(', ')}` : ''),
  );
  return passing;
}
