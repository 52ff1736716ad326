import { CODEX_SUPPORTED_APP_SERVER_VERSIONS } from '../constants.js';

const MAX_USER_AGENT_LENGTH = 512;

/**
 * The app-server reports `<clientName>/<version> (<os>; <arch>) …`. Only an exact allowlisted
 * version counts: prereleases, unlisted patches and newer minors are refused. The adapter cannot
 * authenticate this self-reported value; it only refuses what it knows it has not reviewed.
 */
export function isCompatibleCodexUserAgent(userAgent: unknown, clientName: string): boolean {
  if (typeof userAgent !== 'string' || userAgent.length > MAX_USER_AGENT_LENGTH) return false;
  const prefix = `${clientName}/`;
  if (!userAgent.startsWith(prefix)) return false;
  const rest = userAgent.slice(prefix.length);
  const cut = rest.indexOf(' (');
  if (cut < 0) return false;
  const version = rest.slice(0, cut);
  return (CODEX_SUPPORTED_APP_SERVER_VERSIONS as readonly string[]).includes(version);
}
