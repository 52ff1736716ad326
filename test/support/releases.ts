/**
 * The codex releases tests talk about, derived from the adapter's constants so that no test
 * hard-codes a release: the baseline, hand-built userAgents, and plain releases right next to
 * the allowlisted ones that are not allowlisted.
 */
import {
  CODEX_APP_SERVER_MAX_VERSION,
  CODEX_APP_SERVER_MIN_VERSION,
  CODEX_APP_SERVER_VERSION,
  CODEX_SUPPORTED_APP_SERVER_VERSIONS,
} from '../../src/constants.js';

export const BASELINE = CODEX_APP_SERVER_VERSION;

/** The short userAgent shape the frame tests hand-build. */
export const userAgentOf = (version: string, client = 'relvo_agent_runtime'): string =>
  `${client}/${version} (Linux; x86_64)`;

/** The userAgent shape the real binary sends (as recorded, with TERM=dumb). */
export const recordedUserAgentOf = (version: string): string =>
  `relvo_agent_runtime/${version} (Debian 12.0.0; x86_64) dumb (relvo_agent_runtime; 0.1.0)`;

const parts = (v: string): [number, number, number] => {
  const [a = 0, b = 0, c = 0] = v.split('.').map(Number);
  return [a, b, c];
};

/** Plain releases adjacent to the window's ends that the allowlist does not hold. */
export function unlistedNeighbours(): string[] {
  const [minA, minB, minC] = parts(CODEX_APP_SERVER_MIN_VERSION);
  const [maxA, maxB, maxC] = parts(CODEX_APP_SERVER_MAX_VERSION);
  const candidates = [
    ...(minC > 0 ? [`${minA}.${minB}.${minC - 1}`] : []),
    `${minA}.${minB - 1 < 0 ? 0 : minB - 1}.0`,
    `${maxA}.${maxB}.${maxC + 1}`,
    `${maxA}.${maxB + 1}.0`,
    `${maxA + 1}.0.0`,
  ];
  const listed = new Set<string>(CODEX_SUPPORTED_APP_SERVER_VERSIONS);
  return [...new Set(candidates)].filter((v) => !listed.has(v));
}

/**
 * `additionalAppServerVersions` for a real binary: a release under review (CODEX_UNDER_TEST) is
 * not allowlisted yet, so the provider accepts exactly it; an allowlisted one needs nothing.
 */
export const acceptUnderReview = (version: string): string[] =>
  (CODEX_SUPPORTED_APP_SERVER_VERSIONS as readonly string[]).includes(version) ? [] : [version];
