import {
  CODEX_APP_SERVER_MAX_VERSION,
  CODEX_APP_SERVER_MIN_VERSION,
  CODEX_APP_SERVER_VERSION,
  CODEX_SUPPORTED_APP_SERVER_VERSIONS,
} from '../constants.js';

const MAX_USER_AGENT_LENGTH = 512;
/** What may be echoed back as "the version found": a plain release, optionally a short suffix. */
const ECHOABLE_VERSION = /^\d{1,6}\.\d{1,6}\.\d{1,6}(?:-[0-9A-Za-z.]{1,32})?$/;

/**
 * The version in `<clientName>/<version> (<os>; <arch>) …`, or undefined when the userAgent is
 * not that shape for this client name. Only a version-shaped token is returned, never other text.
 */
export function codexUserAgentVersion(userAgent: unknown, clientName: string): string | undefined {
  if (typeof userAgent !== 'string' || userAgent.length > MAX_USER_AGENT_LENGTH) return undefined;
  const prefix = `${clientName}/`;
  if (!userAgent.startsWith(prefix)) return undefined;
  const rest = userAgent.slice(prefix.length);
  const cut = rest.indexOf(' (');
  if (cut < 0) return undefined;
  const version = rest.slice(0, cut);
  return ECHOABLE_VERSION.test(version) ? version : undefined;
}

/**
 * Only an exact allowlisted version counts (plus any the host reviewed itself and passed as
 * `additionalAppServerVersions`): prereleases, unlisted patches and newer minors are refused. The
 * adapter cannot authenticate this self-reported value; it only refuses what it has not reviewed.
 */
export function isCompatibleCodexUserAgent(
  userAgent: unknown,
  clientName: string,
  additional: readonly string[] = [],
): boolean {
  const version = codexUserAgentVersion(userAgent, clientName);
  return (
    version !== undefined &&
    ((CODEX_SUPPORTED_APP_SERVER_VERSIONS as readonly string[]).includes(version) ||
      additional.includes(version))
  );
}

/** Bounded details of an `unsupported_app_server_version` refusal: what was found, what to install. */
export function unsupportedVersionDetails(
  userAgent: unknown,
  clientName: string,
): Record<string, string | null> {
  return {
    foundVersion: codexUserAgentVersion(userAgent, clientName) ?? null,
    minSupportedVersion: CODEX_APP_SERVER_MIN_VERSION,
    maxSupportedVersion: CODEX_APP_SERVER_MAX_VERSION,
    install: `npm i -E @openai/codex@${CODEX_APP_SERVER_VERSION}`,
  };
}
