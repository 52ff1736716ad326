/**
 * JSONL codec memory benchmark: peak RSS and heap while decoding a 1 GB stream, and on a single
 * 100 MB line (accepted with a large bound, discarded with the default bound). Apart from
 * `codec.ts` (throughput and long-line behaviour) because it measures memory, not speed, and
 * shares only the corpus with it.
 */
import { JsonlDecoder } from '../src/jsonl/decoder.js';
import { buildCorpus, CHUNK, gc, loadFrames } from './codec.js';

interface Peak {
  rssMb: number;
  heapMb: number;
  baseRssMb: number;
  baseHeapMb: number;
}

function sampler(): { sample: () => void; peak: () => Peak } {
  gc();
  const base = process.memoryUsage();
  let rss = base.rss;
  let heap = base.heapUsed;
  return {
    sample: () => {
      const m = process.memoryUsage();
      rss = Math.max(rss, m.rss);
      heap = Math.max(heap, m.heapUsed);
    },
    peak: () => ({
      rssMb: rss / 1048576,
      heapMb: heap / 1048576,
      baseRssMb: base.rss / 1048576,
      baseHeapMb: base.heapUsed / 1048576,
    }),
  };
}

/** Decode a 1 GB stream generated on the fly (fresh chunk buffers, as a pipe would give). */
export async function gigabyteStream(): Promise<{ mb: number; ms: number; frames: number } & Peak> {
  const { frames } = await loadFrames();
  const unit = Buffer.from(buildCorpus(frames).bytes.subarray(0, 4 * 1024 * 1024));
  const total = 1024 * 1024 * 1024;
  const s = sampler();
  let n = 0;
  const d = new JsonlDecoder({
    onFrame: () => {
      n++;
    },
  });
  const t0 = performance.now();
  let sent = 0;
  let i = 0;
  while (sent < total) {
    const off = sent % unit.length;
    const c = Buffer.allocUnsafe(Math.min(CHUNK, unit.length - off));
    unit.copy(c, 0, off, off + c.length);
    d.write(c);
    sent += c.length;
    if (++i % 256 === 0) s.sample();
  }
  d.end();
  s.sample();
  return { mb: total / 1048576, ms: performance.now() - t0, frames: n, ...s.peak() };
}

/** One 100 MB line, fed in fresh 64 KiB chunks. */
export async function hugeLine(
  maxLineLength: number | undefined,
): Promise<{ frames: number; drops: string[] } & Peak> {
  const size = 100 * 1024 * 1024;
  gc();
  const s = sampler();
  let frames = 0;
  const drops: string[] = [];
  const d = new JsonlDecoder({
    onFrame: (v) => {
      if (typeof v === 'string') frames++;
      s.sample();
    },
    onDrop: (r) => drops.push(r),
    ...(maxLineLength === undefined ? {} : { maxLineLength }),
  });
  d.write(Buffer.from('"'));
  for (let sent = 0, i = 0; sent < size; sent += CHUNK, i++) {
    d.write(Buffer.alloc(CHUNK, 0x61));
    if (i % 64 === 0) s.sample();
  }
  d.write(Buffer.from('"\n'));
  s.sample();
  return { frames, drops, ...s.peak() };
}
