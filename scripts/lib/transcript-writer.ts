/**
 * Writing recorded transcripts: the serialisation and the sanitising that replaces this host's
 * workspace, HOME, CODEX_HOME and host name with placeholders. Recording tooling only; the
 * reading side (parse, restore) is `src/testing/transcript.ts`, exported from `./testing`.
 */
import {
  mapFrameStrings,
  PLACEHOLDERS,
  type PlaceholderValues,
  type TranscriptLine,
} from '../../src/testing/transcript.js';

export function serializeTranscript(lines: readonly TranscriptLine[]): string {
  return (
    lines
      .map((l) => JSON.stringify({ seq: l.seq, t: l.t, dir: l.dir, frame: l.frame }))
      .join('\n') + '\n'
  );
}

// Host names can be very short (e.g. "vm"), so inside longer strings they are only
// replaced in the fields known to embed them; an exact string match is replaced anywhere.
const HOSTNAME_FIELDS = new Set(['userAgent', 'serverName']);

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replace host-specific values with placeholders (a deep copy; the input is untouched). */
export function sanitizeFrame<T>(frame: T, values: PlaceholderValues): T {
  // Longest first, so CODEX_HOME (inside HOME) wins over HOME.
  const paths = (
    [
      [values.workspace, PLACEHOLDERS.workspace],
      [values.codexHome, PLACEHOLDERS.codexHome],
      [values.home, PLACEHOLDERS.home],
    ] as const
  )
    .filter(([v]) => v.length > 0)
    .sort((a, b) => b[0].length - a[0].length);
  const hostWord =
    values.hostname.length > 0
      ? new RegExp(`\\b${escapeRegExp(values.hostname)}\\b`, 'g')
      : undefined;
  return mapFrameStrings(frame, (s, key) => {
    if (values.hostname.length > 0 && s === values.hostname) return PLACEHOLDERS.hostname;
    let out = s;
    for (const [from, to] of paths) out = out.split(from).join(to);
    if (hostWord !== undefined && key !== undefined && HOSTNAME_FIELDS.has(key)) {
      out = out.replace(hostWord, PLACEHOLDERS.hostname);
    }
    return out;
  }) as T;
}
