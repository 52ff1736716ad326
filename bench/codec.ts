/**
 * JSONL codec benchmark: throughput against bare JSON.parse, node:readline and the MCP SDK's
 * ReadBuffer on one corpus of real codex frames, and what a long line does to each. Peak memory
 * on a 1 GB stream and on a single 100 MB line is `codec-memory.ts`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { JsonlDecoder } from '../src/jsonl/decoder.js';

const ROOT = resolve(import.meta.dirname, '..');
export const CHUNK = 64 * 1024;
const CORPUS_BYTES = 24 * 1024 * 1024;
export const gc = (): void => {
  (globalThis as { gc?: () => void }).gc?.();
};

/** The server-to-client frames of the checked-in transcripts recorded from the real binary. */
export async function loadFrames(): Promise<{ frames: unknown[]; source: string }> {
  const dir = join(ROOT, 'fixtures/transcripts/0.156.1');
  if (existsSync(dir)) {
    const frames: unknown[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        const rec = JSON.parse(line) as { dir?: string; frame?: unknown };
        if (rec.dir === 's2c') frames.push(rec.frame);
      }
    }
    if (frames.length > 0)
      return { frames, source: `fixtures/transcripts/0.156.1 (${frames.length} s2c frames)` };
  }
  throw new Error(`bench: no recorded frames in ${dir}; run \`npm run protocol:record\``);
}

/**
 * The same frames for every contestant, made JSON-RPC 2.0 conformant (`jsonrpc` added,
 * `emittedAtMs` removed) because ReadBuffer validates with strict schemas and throws otherwise.
 */
export function buildCorpus(frames: unknown[]): { bytes: Buffer; lines: string[] } {
  const lines = frames.map((f) => {
    const { emittedAtMs: _drop, ...rest } = f as Record<string, unknown>;
    return JSON.stringify({ jsonrpc: '2.0', ...rest });
  });
  const unit = lines.join('\n') + '\n';
  const reps = Math.max(1, Math.ceil(CORPUS_BYTES / Buffer.byteLength(unit)));
  const all: string[] = [];
  for (let i = 0; i < reps; i++) all.push(...lines);
  return { bytes: Buffer.from(unit.repeat(reps), 'utf8'), lines: all };
}

function chunks(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) out.push(bytes.subarray(i, i + CHUNK));
  return out;
}

type Contestant = readonly [name: string, run: () => Promise<number> | number];

/** Interleaved rounds (each contestant once per round), best time each: fairer on a noisy host. */
async function race(
  rounds: number,
  contestants: readonly Contestant[],
): Promise<{ name: string; ms: number; frames: number }[]> {
  const out = contestants.map(([name]) => ({ name, ms: Infinity, frames: 0 }));
  for (let r = 0; r < rounds; r++) {
    for (const [i, [, run]] of contestants.entries()) {
      gc();
      const t0 = performance.now();
      const frames = await run();
      const ms = performance.now() - t0;
      const row = out[i]!;
      row.ms = Math.min(row.ms, ms);
      row.frames = frames;
    }
  }
  return out;
}

function contestants(lines: readonly string[], parts: readonly Buffer[]): Contestant[] {
  return [
    [
      'JSON.parse of pre-split lines (baseline)',
      () => {
        let n = 0;
        for (const l of lines) if (JSON.parse(l) !== undefined) n++;
        return n;
      },
    ],
    [
      'JsonlDecoder (64 KiB chunks)',
      () => {
        let n = 0;
        const d = new JsonlDecoder({
          onFrame: () => {
            n++;
          },
        });
        for (const c of parts) d.write(c);
        d.end();
        return n;
      },
    ],
    [
      'node:readline + JSON.parse',
      async () => {
        let n = 0;
        const rl = createInterface({ input: Readable.from(parts), crlfDelay: Infinity });
        for await (const l of rl) if (JSON.parse(l) !== undefined) n++;
        return n;
      },
    ],
    [
      'MCP SDK ReadBuffer (incl. its zod validation)',
      () => {
        let n = 0;
        const rb = new ReadBuffer();
        for (const c of parts) {
          rb.append(c);
          while (rb.readMessage() !== null) n++;
        }
        return n;
      },
    ],
  ];
}

export interface ThroughputRow {
  readonly name: string;
  readonly mbPerSec: number;
  readonly frames: number;
  readonly ratio: number;
}

export async function throughput(
  runs = 7,
): Promise<{ source: string; corpusMb: number; rows: ThroughputRow[] }> {
  const { frames, source } = await loadFrames();
  const { bytes, lines } = buildCorpus(frames);
  const parts = chunks(bytes);
  const mb = bytes.length / (1024 * 1024);
  const results = await race(runs, contestants(lines, parts));
  const baseline = results[0]!.ms;
  return {
    source,
    corpusMb: mb,
    rows: results.map((r) => ({
      name: r.name,
      mbPerSec: mb / (r.ms / 1000),
      frames: r.frames,
      ratio: r.ms / baseline,
    })),
  };
}

/**
 * Large frames: a command's whole output in one `item/completed` (about 3 MB each, under the
 * 4,000,000 bound), the case where a decoder that re-concatenates its buffer per chunk goes
 * quadratic. Same contestants, same 64 KiB chunks.
 */
export async function largeFrames(
  runs = 5,
): Promise<{ frameMb: number; corpusMb: number; rows: ThroughputRow[] }> {
  const output = 'line of command output 0123456789abcdef\n'.repeat(75_000);
  const frame = {
    method: 'item/completed',
    params: {
      threadId: 't',
      turnId: 'u',
      item: {
        type: 'commandExecution',
        id: 'call_1',
        status: 'completed',
        exitCode: 0,
        aggregatedOutput: output,
      },
    },
  };
  const { bytes, lines } = buildCorpus(Array.from({ length: 8 }, () => frame));
  const parts = chunks(bytes);
  const mb = bytes.length / (1024 * 1024);
  const results = await race(runs, contestants(lines, parts));
  const baseline = results[0]!.ms;
  return {
    frameMb: Buffer.byteLength(lines[0]!) / (1024 * 1024),
    corpusMb: mb,
    rows: results.map((r) => ({
      name: r.name,
      mbPerSec: mb / (r.ms / 1000),
      frames: r.frames,
      ratio: r.ms / baseline,
    })),
  };
}

/** Does readline split a line at U+2028/U+2029? (JSON.stringify leaves them unescaped.) */
export async function readlineSeparatorCheck(): Promise<string> {
  const text = JSON.stringify({ a: 'x\u2028y', b: 'p\u2029q' }) + '\n';
  const lines: string[] = [];
  const rl = createInterface({ input: Readable.from([Buffer.from(text)]), crlfDelay: Infinity });
  for await (const l of rl) lines.push(l);
  let ours = 0;
  const d = new JsonlDecoder({
    onFrame: () => {
      ours++;
    },
  });
  d.write(Buffer.from(text));
  const parsed = lines.filter((l) => {
    try {
      JSON.parse(l);
      return true;
    } catch {
      return false;
    }
  }).length;
  return (
    `readline on one frame holding U+2028/U+2029: ${lines.length} line(s), ${parsed} parseable ` +
    `(node ${process.version}); JsonlDecoder: ${ours} frame(s)`
  );
}

/**
 * One stray long line (12 MB, over ReadBuffer's 10 MB cap) followed by a normal frame: which
 * decoders keep the stream alive? Not a speed figure; it shows what a long line costs a session.
 */
export function longLineSurvival(): string {
  const long = JSON.stringify({
    jsonrpc: '2.0',
    method: 'item/completed',
    params: { out: 'x'.repeat(12 * 1024 * 1024) },
  });
  const next = JSON.stringify({ jsonrpc: '2.0', method: 'turn/completed', params: {} });
  const parts = chunks(Buffer.from(`${long}\n${next}\n`));
  let readBuffer: string;
  try {
    const rb = new ReadBuffer();
    let n = 0;
    for (const c of parts) {
      rb.append(c);
      while (rb.readMessage() !== null) n++;
    }
    readBuffer = `${n} frame(s)`;
  } catch {
    readBuffer = 'threw (the stream is lost)';
  }
  const methods: string[] = [];
  const drops: string[] = [];
  const d = new JsonlDecoder({
    onFrame: (v) => methods.push(String((v as { method?: unknown }).method)),
    onDrop: (r) => drops.push(r),
  });
  for (const c of parts) d.write(c);
  d.end();
  return (
    `12 MB line then a normal frame: ReadBuffer ${readBuffer}; ` +
    `JsonlDecoder (default bound) dropped [${drops.join(',')}] and delivered [${methods.join(',')}]`
  );
}
