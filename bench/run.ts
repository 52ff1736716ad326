/** `npm run bench`: the JSONL codec and agent-runtime benchmarks, printed as tables. */
import {
  gigabyteStream,
  hugeLine,
  largeFrames,
  longLineSurvival,
  readlineSeparatorCheck,
  throughput,
} from './codec.js';
import { runtimeBench } from './runtime.js';

const f1 = (n: number): string => n.toFixed(1);
const t0 = performance.now();

const tp = await throughput();
console.log(
  `\nJSONL decode throughput — corpus: ${tp.source}, ${f1(tp.corpusMb)} MB, best of 7 interleaved rounds`,
);
console.table(
  tp.rows.map((r) => ({
    contestant: r.name,
    'MB/s': f1(r.mbPerSec),
    frames: r.frames,
    'time vs bare JSON.parse': `${r.ratio.toFixed(2)}x`,
  })),
);
console.log(await readlineSeparatorCheck());
console.log(longLineSurvival());

const large = await largeFrames();
console.log(
  `\nLarge frames — ${f1(large.frameMb)} MB each (a command's output in one item/completed), ${f1(large.corpusMb)} MB, 64 KiB chunks, best of 5`,
);
console.table(
  large.rows.map((r) => ({
    contestant: r.name,
    'MB/s': f1(r.mbPerSec),
    frames: r.frames,
    'time vs bare JSON.parse': `${r.ratio.toFixed(2)}x`,
  })),
);

const gb = await gigabyteStream();
console.log('\nMemory while decoding');
const lineBig = await hugeLine(200_000_000);
const lineDefault = await hugeLine(undefined);
console.table([
  {
    case: `1 GB stream (${gb.frames} frames, ${f1(gb.mb / (gb.ms / 1000))} MB/s)`,
    'peak RSS MB': f1(gb.rssMb),
    'base RSS MB': f1(gb.baseRssMb),
    'peak heap MB': f1(gb.heapMb),
    result: 'ok',
  },
  {
    case: '100 MB line, bound 200,000,000',
    'peak RSS MB': f1(lineBig.rssMb),
    'base RSS MB': f1(lineBig.baseRssMb),
    'peak heap MB': f1(lineBig.heapMb),
    result: `${lineBig.frames} frame, drops [${lineBig.drops.join(',')}]`,
  },
  {
    case: '100 MB line, default bound (4,000,000)',
    'peak RSS MB': f1(lineDefault.rssMb),
    'base RSS MB': f1(lineDefault.baseRssMb),
    'peak heap MB': f1(lineDefault.heapMb),
    result: `${lineDefault.frames} frame, drops [${lineDefault.drops.join(',')}]`,
  },
]);
await runtimeBench();
console.log(`\nbench finished in ${f1((performance.now() - t0) / 1000)} s`);
