/**
 * Reading recorded transcripts (fixtures/transcripts/<version>/<scenario>.jsonl): the line
 * format, and the placeholders that stand for host paths and names in checked-in fixtures.
 * Writing them is the recorder's job (scripts/lib/transcript-writer.ts).
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

/** A deep copy of a frame with every string passed through `fn` (with its member name). */
export function mapFrameStrings(
  value: unknown,
  fn: (s: string, key: string | undefined) => string,
  key?: string,
): unknown {
  if (typeof value === 'string') return fn(value, key);
  if (Array.isArray(value)) return value.map((v) => mapFrameStrings(v, fn));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, mapFrameStrings(v, fn, k)]),
    );
  }
  return value;
}

/** Put this host's values where a recorded transcript holds placeholders (for replay). */
export function restorePlaceholders<T>(frame: T, values: PlaceholderValues): T {
  const pairs = [
    [PLACEHOLDERS.workspace, values.workspace],
    [PLACEHOLDERS.codexHome, values.codexHome],
    [PLACEHOLDERS.home, values.home],
    [PLACEHOLDERS.hostname, values.hostname],
  ] as const;
  return mapFrameStrings(frame, (s) => {
    let out = s;
    for (const [from, to] of pairs) out = out.split(from).join(to);
    return out;
  }) as T;
}
