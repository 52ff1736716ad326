/**
 * The table of `relvo-codex sessions`. By default it fits an 80-column terminal: ids shortened
 * to the shortest prefix that stays unique (`log` and `run --resume` take a prefix), long
 * profiles cut, one time column. `--wide` shows every column in full.
 */
import type { SessionListing } from '../host/log-reader.js';

/** Hex digits an id keeps after `ses_` at least; more when two ids share them. */
const SHORT_ID_DIGITS = 8;
const PROFILE_MAX = 14;
const ID_PREFIX = 'ses_';

/** Each id cut to the shortest prefix (at least 8 digits) no other listed id starts with. */
export function shortIds(ids: readonly string[]): string[] {
  return ids.map((id) => {
    const digits = id.startsWith(ID_PREFIX) ? ID_PREFIX.length : 0;
    for (let n = digits + SHORT_ID_DIGITS; n < id.length; n += 1) {
      const prefix = id.slice(0, n);
      if (!ids.some((other) => other !== id && other.startsWith(prefix))) return prefix;
    }
    return id;
  });
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** `2026-12-05 00:16:29Z` (wide) or `12-05 00:16` (narrow). */
function when(iso: string, wide: boolean): string {
  return wide
    ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}Z`
    : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
}

/** Rows of text, the header first, columns two spaces apart, no trailing blanks. */
export function sessionTable(listings: readonly SessionListing[], wide: boolean): string[] {
  const ids = wide ? listings.map((l) => l.sessionId) : shortIds(listings.map((l) => l.sessionId));
  const header = wide
    ? ['SESSION', 'PROFILE', 'STATE', 'TURNS', 'STARTED', 'LAST ACTIVITY', 'RESUMABLE']
    : ['SESSION', 'PROFILE', 'STATE', 'TURNS', 'LAST (UTC)', 'RESUME'];
  const rows = listings.map((l, i) => {
    const profiles = l.profiles.join(',');
    const resumable = l.resumable ? 'yes' : '-';
    return wide
      ? [
          ids[i] ?? '',
          profiles,
          l.state,
          String(l.turns),
          when(l.startedAt, true),
          when(l.lastActivityAt, true),
          resumable,
        ]
      : [
          ids[i] ?? '',
          cut(profiles, PROFILE_MAX),
          l.state,
          String(l.turns),
          when(l.lastActivityAt, false),
          resumable,
        ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const format = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [format(header), ...rows.map(format)];
}
