/**
 * The redaction contract of tool activity (ADR-0014, docs/tool-activity.md). Every string a
 * tool-activity detail carries goes through `redactToolText` or `workspacePath`; the rules run
 * in a fixed order so that a later rule never sees what an earlier one removed, and bounding is
 * last so a truncated secret can never slip under a credential pattern.
 */
import { isAbsolute, posix } from 'node:path';
import { redact } from './redact.js';

export const OUTSIDE_WORKSPACE = '<outside-workspace>';
export const URL_PLACEHOLDER = '<url>';
export const SECRET_PLACEHOLDER = '[redacted]';
export const TRUNCATION_MARK = '…';

// Rule 2: a URL may carry credentials, internal hosts or tokens in its query.
const URL_PATTERN = /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s'"`<>]*/g;
// Rule 3: an absolute or home-relative (`~/`, `~user/`, bare `~user`) path token left after the
// workspace was made relative.
const ABSOLUTE_PATH_PATTERN =
  /(?<=^|[\s'"`=:(,;|&<>])(?:~[A-Za-z0-9._-]*(?=[/\s'"`;|&<>(),]|$)|(?=\/))[^\s'"`;|&<>(),]*/g;
// Rule 3's one exception: a program of the system's own folders, where a command starts, is named,
// not hidden; its path says nothing about the user or the machine (`/bin/bash -lc …` reads
// `bash -lc …`). As an argument (`cat /bin/bash`) it stays hidden: a bare name would read as a
// file of the workspace.
const SYSTEM_PROGRAM = /^\/(?:usr\/(?:local\/)?)?s?bin\/(?!\.\.?$)([A-Za-z0-9._+-]+)$/;
const COMMAND_START = /(?:^|[|&;(`'"])\s*$/;

function outsidePath(token: string, offset: number, text: string): string {
  const program = SYSTEM_PROGRAM.exec(token)?.[1];
  return program !== undefined && COMMAND_START.test(text.slice(0, offset))
    ? program
    : OUTSIDE_WORKSPACE;
}
// Rule 3: any other token, checked for a `..` that climbs out of where it starts.
const PATH_TOKEN = /(?<=^|[\s'"`=:(,;|&<>])[^\s'"`;|&<>(),=:]*\.\.[^\s'"`;|&<>(),=:]*/g;

/** True for a relative token whose `..` segments climb above its starting folder. */
function climbsOut(token: string): boolean {
  if (!token.split('/').includes('..')) return false;
  const normal = posix.normalize(token);
  return normal === '..' || normal.startsWith('../');
}
// Rule 5 (in addition to the shared credential shapes of redact.ts).
const SECRET_ASSIGNMENT =
  /\b([A-Za-z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)[A-Za-z0-9_]*)=("[^"]*"|'[^']*'|\S+)/gi;
const SECRET_FLAG =
  /(--?(?:password|passwd|token|api-key|apikey|secret|auth|access-key)(?:=|\s+))("[^"]*"|'[^']*'|\S+)/gi;
const BEARER = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/g;
const URL_USERINFO = /\/\/[^\s/@:]+:[^\s/@]+@/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Cuts at `max` UTF-16 units without splitting a surrogate pair; marks the cut. */
export function bounded(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  let end = Math.max(0, max - TRUNCATION_MARK.length);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return { text: text.slice(0, end) + TRUNCATION_MARK, truncated: true };
}

export function redactCredentials(text: string): string {
  return redact(
    text
      .replace(URL_USERINFO, `//${SECRET_PLACEHOLDER}@`)
      .replace(BEARER, `$1 ${SECRET_PLACEHOLDER}`)
      .replace(SECRET_ASSIGNMENT, `$1=${SECRET_PLACEHOLDER}`)
      .replace(SECRET_FLAG, `$1${SECRET_PLACEHOLDER}`),
  );
}

/**
 * Free text that may name paths and secrets (a command line, a search query, an MCP server or
 * tool name): 1 URLs → `<url>`; 2 the workspace root → relative (`.` for the root itself);
 * 3 any other absolute, `~`/`~user` or `..`-escaping path → `<outside-workspace>`, except a program
 * of the system's folders (`/bin`, `/usr/bin`, `/usr/local/bin`, and their `sbin`) where a command
 * starts, named by its file name; 4 credential shapes → `[redacted]`; 5 bounded to `max`.
 */
export function redactToolText(text: string, workspaceRoot: string, max: number): string {
  const root = workspaceRoot.replace(/\/+$/, '');
  let out = text
    .replace(URL_USERINFO, `//${SECRET_PLACEHOLDER}@`)
    .replace(URL_PATTERN, URL_PLACEHOLDER);
  if (root.length > 0) {
    const escaped = escapeRegExp(root);
    out = out
      .replace(new RegExp(`${escaped}/`, 'g'), '')
      .replace(new RegExp(`${escaped}(?![A-Za-z0-9._-])`, 'g'), '.');
  }
  // a relative `..` escape is replaced even when the command's folder would keep it inside:
  // the contract prefers losing a harmless path to guessing
  out = out
    .replace(ABSOLUTE_PATH_PATTERN, outsidePath)
    .replace(PATH_TOKEN, (token) => (climbsOut(token) ? OUTSIDE_WORKSPACE : token));
  return bounded(redactCredentials(out), max).text;
}

/**
 * One path codex reports (absolute or relative to the workspace): inside the root it becomes
 * workspace-relative; outside (absolute elsewhere, or escaping with `..`) it is replaced whole.
 */
export function workspacePath(path: string, workspaceRoot: string, max: number): string {
  const root = posix.normalize(workspaceRoot).replace(/\/+$/, '');
  let relative: string;
  if (isAbsolute(path)) {
    const normal = posix.normalize(path);
    if (normal === root) relative = '.';
    else if (root.length > 0 && normal.startsWith(`${root}/`))
      relative = normal.slice(root.length + 1);
    else return OUTSIDE_WORKSPACE;
  } else {
    relative = posix.normalize(path);
    if (relative === '..' || relative.startsWith('../') || relative.startsWith('~'))
      return OUTSIDE_WORKSPACE;
  }
  return bounded(redactCredentials(relative), max).text;
}
