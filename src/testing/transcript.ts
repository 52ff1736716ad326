/**
 * The recorded-transcript format (fixtures/transcripts/<version>/<scenario>.jsonl) and the
 * placeholder substitution that keeps host paths and names out of checked-in fixtures.
 */
import { z } from 'zod';

export const TRANSCRIPT_DIRECTIONS = ['c2s', 's2c'] as const;
export type TranscriptDirection = (typeof TRANSCRIPT_DIRECTIONS)[number];

/** One JSONL line: `{"seq","t","dir","frame"}`; `t` is integer ms since spawn. */
export const TranscriptLineSchema = z
  .object({
    seq: z.number().int().nonnegative(),
    t: z.number().int().nonnegative(),
    dir: z.enum(TRANSCRIPT_DIRECTIONS),
    frame: z.record(z.string(), z.unknown()),
  })
  .strict();
export type TranscriptLine = z.infer<typeof TranscriptLineSchema>;

/** Parse a whole transcript file; seq must run 0,1,2,… and t must not go backwards. */
export function parseTranscript(text: string): TranscriptLine[] {
  const lines = text.split('\n').filter((l) => l.length > 0);
  const parsed = lines.map((line, i) => {
    const result = TranscriptLineSchema.safeParse(JSON.parse(line));
    if (!result.success) throw new Error(`transcript line ${i}: not a transcript line`);
    return result.data;
  });
  parsed.forEach((line, i) => {
    if (line.seq !== i) throw new Error(`transcript line ${i}: seq ${line.seq} out of order`);
    const prev = parsed[i - 1];
    if (prev !== undefined && line.t < prev.t)
      throw new Error(`transcript line ${i}: time goes backwards`);
  });
  return parsed;
}

export function serializeTranscript(lines: readonly TranscriptLine[]): string {
  return (
    lines
      .map((l) => JSON.stringify({ seq: l.seq, t: l.t, dir: l.dir, frame: l.frame }))
      .join('\n') + '\n'
  );
}

export interface PlaceholderValues {
  readonly workspace: string;
  readonly home: string;
  readonly codexHome: string;
  readonly hostname: string;
}

export const PLACEHOLDERS = {
  workspace: '<workspace>',
  home: '<home>',
  codexHome: '<codex_home>',
  hostname: '<hostname>',
} as const satisfies Record<keyof PlaceholderValues, string>;

// Host names can be very short (e.g. "vm"), so inside longer strings they are only
// replaced in the fields known to embed them; an exact string match is replaced anywhere.
const HOSTNAME_FIELDS = new Set(['userAgent', 'serverName']);

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function mapStrings(
  value: unknown,
  fn: (s: string, key: string | undefined) => string,
  key?: string,
): unknown {
  if (typeof value === 'string') return fn(value, key);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, fn, k)]));
  }
  return value;
}

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
  return mapStrings(frame, (s, key) => {
    if (values.hostname.length > 0 && s === values.hostname) return PLACEHOLDERS.hostname;
    let out = s;
    for (const [from, to] of paths) out = out.split(from).join(to);
    if (hostWord !== undefined && key !== undefined && HOSTNAME_FIELDS.has(key)) {
      out = out.replace(hostWord, PLACEHOLDERS.hostname);
    }
    return out;
  }) as T;
}

/** The inverse of `sanitizeFrame`, for replaying a transcript on another host. */
export function restorePlaceholders<T>(frame: T, values: PlaceholderValues): T {
  const pairs = [
    [PLACEHOLDERS.workspace, values.workspace],
    [PLACEHOLDERS.codexHome, values.codexHome],
    [PLACEHOLDERS.home, values.home],
    [PLACEHOLDERS.hostname, values.hostname],
  ] as const;
  return mapStrings(frame, (s) => {
    let out = s;
    for (const [from, to] of pairs) out = out.split(from).join(to);
    return out;
  }) as T;
}
