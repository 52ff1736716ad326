/**
 * Frames recorded from the real binary, for benchmarks: the transcripts of the pinned baseline
 * release (or, if that folder has none, of the newest release that has them).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CODEX_APP_SERVER_VERSION } from '../../src/constants.js';

export const ROOT = resolve(import.meta.dirname, '..', '..');
const TRANSCRIPTS = join(ROOT, 'fixtures', 'transcripts');

export interface RecordedLine {
  readonly seq: number;
  readonly t: number;
  readonly dir: 'c2s' | 's2c';
  readonly frame: Record<string, unknown>;
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The transcript folder used by every benchmark, and its release. */
export function transcriptRelease(scenario = 'text_turn'): { version: string; dir: string } {
  const has = (v: string): boolean => existsSync(join(TRANSCRIPTS, v, `${scenario}.jsonl`));
  if (has(CODEX_APP_SERVER_VERSION))
    return { version: CODEX_APP_SERVER_VERSION, dir: join(TRANSCRIPTS, CODEX_APP_SERVER_VERSION) };
  const versions = existsSync(TRANSCRIPTS)
    ? readdirSync(TRANSCRIPTS)
        .filter((v) => /^\d+\.\d+\.\d+$/.test(v) && has(v))
        .sort(compareVersions)
    : [];
  const newest = versions.at(-1);
  if (newest === undefined)
    throw new Error(`bench: no recorded ${scenario} transcript; run \`npm run protocol:record\``);
  return { version: newest, dir: join(TRANSCRIPTS, newest) };
}

export function loadRecorded(scenario: string): RecordedLine[] {
  const { dir } = transcriptRelease(scenario);
  return readFileSync(join(dir, `${scenario}.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as RecordedLine);
}

/** Swap the recorder's placeholders for concrete values, everywhere in a frame. */
export function restorePlaceholders(value: unknown, workspace: string): unknown {
  const map: Record<string, string> = {
    '<workspace>': workspace,
    '<home>': '/home/bench',
    '<codex_home>': '/home/bench/.codex',
    '<hostname>': 'bench-host',
  };
  if (typeof value === 'string') {
    let out = value;
    for (const [from, to] of Object.entries(map)) out = out.split(from).join(to);
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => restorePlaceholders(v, workspace));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, restorePlaceholders(v, workspace)]),
    );
  }
  return value;
}
