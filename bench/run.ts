/**
 * `npm run bench [-- SECTION… --pairs N --trials N --density 8,32,128 --host-sessions 16,64]`:
 * every benchmark, printed as Markdown tables (the form docs/performance.md and docs/scaling.md
 * quote). Sections: codec, path, heap, runtime, commands, overhead, prewarm, demo, density, host,
 * history (`--history-turns N`). Without a
 * section, all run. Ratios are measured side by side in one run.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { adapterPath, heapPerIdleSession } from './adapter-path.js';
import { largeFrames, longLineSurvival, readlineSeparatorCheck, throughput } from './codec.js';
import { gigabyteStream, hugeLine } from './codec-memory.js';
import { demoRows, demoStart } from './demo.js';
import { density } from './density.js';
import { historyBench } from './history.js';
import { hostDensity } from './host-density.js';
import { overhead, procPassCost, summarise } from './overhead.js';
import { prewarmOpen, prewarmRows } from './prewarm.js';
import { commandsSection } from './commands.js';
import { runtimeSection } from './runtime.js';
import { f1, f2, markdownTable } from './support/stats.js';

const SECTIONS = [
  'codec',
  'path',
  'heap',
  'runtime',
  'commands',
  'overhead',
  'prewarm',
  'demo',
  'density',
  'host',
  'history',
] as const;
type Section = (typeof SECTIONS)[number];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    pairs: { type: 'string', default: '20' },
    density: { type: 'string', default: '8,32,128' },
    'host-sessions': { type: 'string', default: '16,64' },
    sessions: { type: 'string', default: '1000' },
    trials: { type: 'string', default: '10' },
    commands: { type: 'string', default: '100' },
    'history-turns': { type: 'string', default: '1000' },
  },
});
for (const p of positionals) {
  if (!(SECTIONS as readonly string[]).includes(p))
    throw new Error(`bench: unknown section ${p}; choose from ${SECTIONS.join(', ')}`);
}
const chosen = new Set<Section>(
  positionals.length === 0 ? SECTIONS : (positionals as readonly Section[]),
);

const say = (text: string): void => {
  console.log(text);
};
const t0 = performance.now();
say(
  `# bench — node ${process.version}, ${cpus().length} CPU(s), load average ${loadAverage()} at start`,
);

function loadAverage(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
}

if (chosen.has('codec')) {
  const tp = await throughput();
  say(
    `\n## JSONL decode throughput\ncorpus: ${tp.source}, ${f1(tp.corpusMb)} MB, 64 KiB chunks, best of 7 interleaved rounds\n`,
  );
  say(
    markdownTable(
      tp.rows.map((r) => ({
        contestant: r.name,
        'MB/s': f1(r.mbPerSec),
        frames: r.frames,
        'time vs bare JSON.parse': `${f2(r.ratio)}×`,
        'throughput vs bare JSON.parse': `${f2(1 / r.ratio)}×`,
      })),
    ),
  );
  say(`\n${await readlineSeparatorCheck()}`);
  say(longLineSurvival());

  const large = await largeFrames();
  say(
    `\n## Large frames\n${f1(large.frameMb)} MB each (a command's output in one item/completed), ${f1(large.corpusMb)} MB, 64 KiB chunks, best of 5\n`,
  );
  say(
    markdownTable(
      large.rows.map((r) => ({
        contestant: r.name,
        'MB/s': f1(r.mbPerSec),
        frames: r.frames,
        'time vs bare JSON.parse': `${f2(r.ratio)}×`,
      })),
    ),
  );

  const gb = await gigabyteStream();
  const lineBig = await hugeLine(200_000_000);
  const lineDefault = await hugeLine(undefined);
  say('\n## Memory while decoding\n');
  say(
    markdownTable([
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
    ]),
  );
}

if (chosen.has('path')) {
  const p = await adapterPath();
  say(
    `\n## Whole adapter path vs the decoder alone\nrecorded ${p.release} text turn, agent-message delta repeated: ${p.turns} turns × ${p.framesPerTurn} frames, ${f1(p.mb)} MB, 64 KiB chunks per macrotask, 3 whole warm-up rounds, then best of 5 interleaved rounds\n`,
  );
  say(
    markdownTable([
      {
        contestant: 'JsonlDecoder alone (same bytes, same chunks)',
        'frames/s (wall)': p.decoderFps.toFixed(0),
        'ratio (wall)': '1.00×',
        'frames/CPU-s': p.decoderCpuFps.toFixed(0),
        'ratio (CPU)': '1.00×',
      },
      {
        contestant: 'decoder → JSON-RPC client → correlator → translation → sink',
        'frames/s (wall)': p.adapterFps.toFixed(0),
        'ratio (wall)': `${f2(p.ratio)}×`,
        'frames/CPU-s': p.adapterCpuFps.toFixed(0),
        'ratio (CPU)': `${f2(p.cpuRatio)}×`,
      },
    ]),
  );
  say(`sink events per round: ${p.events}`);
}

if (chosen.has('heap')) {
  const count = Number(values.sessions);
  const h = await heapPerIdleSession(count);
  say(
    `\n## Adapter heap per idle session\n${h.sessions} sessions open at once on replay transports\n`,
  );
  say(
    markdownTable([
      {
        'heap per open idle session KB': f1(h.perSessionBytes / 1024),
        'of which the replay transport KB': f1(h.perTransportBytes / 1024),
        'left per session after dispose KB': f1(h.afterDisposeBytes / 1024),
      },
    ]),
  );
}

if (chosen.has('runtime')) say(await runtimeSection());

if (chosen.has('commands')) {
  const rounds = Number(values.commands);
  say(
    `\n## A command routed to the owning runtime vs carried out locally\nan approval answered ${String(rounds)} times by its owner and ${String(rounds)} times by a second runtime on the same store, alternating; each answer durable in the owner's log before the call resolves\n`,
  );
  say(await commandsSection(rounds));
}

if (chosen.has('overhead')) {
  const pairs = Number(values.pairs);
  const r = await overhead({ pairs });
  say(
    `\n## Adapter vs a minimal raw client on the real binary\ncodex ${r.version} native, ${r.pairs} pairs, order flipped every pair, one unmeasured warm-up pair; scripted model on 127.0.0.1\n`,
  );
  say(
    markdownTable(
      summarise(r).map((row) => ({
        measure: row.measure,
        'raw median ms': f1(row.rawMedianMs),
        'adapter median ms': f1(row.adapterMedianMs),
        'ratio of medians': `${f2(row.ratio)}×`,
        'median paired diff ms': f1(row.pairedDiffMs),
        'paired diff p25…p75 ms': `${f1(row.pairedDiffP25)} … ${f1(row.pairedDiffP75)}`,
      })),
    ),
  );
  const pass = procPassCost();
  say(
    `\none pass over /proc (what dispose adds to prove nothing owned is left; an idle session's teardown takes 1, the pass at the leader's exit (ADR-0004 amendment), or more when a process vanished mid-pass or something owned was alive): ${f2(pass.medianMs)} ms median for ${pass.processes} processes`,
  );
}

if (chosen.has('history')) {
  const h = await historyBench(Number(values['history-turns']));
  say(
    `\n## Reading a thread's past: history against a full resume\nreal binary, a persisted thread of ${String(h.rows[0]?.turns ?? 0)} turns (~1 KB answers, built in ${f1(h.buildMs / 1000)} s); each contestant in a fresh app-server on the same CODEX_HOME; host heap after a GC, replies still held\n`,
  );
  say(
    markdownTable(
      h.rows.map((r) => ({
        contestant: r.contestant,
        'turns read': r.turns,
        'codex RSS MB': f1(r.codexRssMb),
        'reply KB': Number.isNaN(r.replyKb) ? '—' : f1(r.replyKb),
        'host heap MB': f1(r.hostHeapMb),
        ms: f1(r.ms),
      })),
    ),
  );
}

if (chosen.has('prewarm')) {
  const r = await prewarmOpen({ pairs: Number(values.pairs) });
  say(
    `\n## Session open through the runtime, with and without prewarm\nreal binary, ${r.pairs} pairs, order flipped every pair; openSession → first turn admitted; warm trials start with the warm set full (${r.missed} found it empty); the floor is a raw client's first turn/start on a thread it started 100 ms before, after each pair\n`,
  );
  say(markdownTable(prewarmRows(r)));
}

if (chosen.has('demo')) {
  const r = await demoStart(Number(values.trials));
  say(
    `\n## npm run demo on a terminal\n${r.trials} trials each, interleaved, on a pseudo-terminal (\`script\`); the demo's first line: "${r.firstLine.slice(0, 40)}"\n`,
  );
  say(markdownTable(demoRows(r)));
}

if (chosen.has('density')) {
  const ns = values.density.split(',').map(Number);
  const rows = [];
  for (const n of ns) {
    const d = await density(n);
    rows.push({
      N: d.n,
      completed: `${d.completed}/${d.n}`,
      'wall s (open + turn)': f1(d.wallMs / 1000),
      'dispose all s': f1(d.disposeWallMs / 1000),
      groups: d.groups,
      'RSS per group MB (median)': f1(d.medianGroupRssMb),
      'PSS per group MB (median)': f1(d.medianGroupPssMb),
      'total PSS MB': f1(d.totalPssMb),
      'outside groups': d.outsideGroups,
      'left after dispose': d.leftAfterDispose,
      failures: d.failed.length === 0 ? '-' : d.failed.join(', '),
    });
  }
  say(
    '\n## Density on the real binary\nN sessions opened at once, each completing a scripted text turn (one CODEX_HOME, warmed by one session first)\n',
  );
  say(markdownTable(rows));
}

if (chosen.has('host')) {
  const rows = [];
  for (const n of values['host-sessions'].split(',').map(Number)) {
    const h = await hostDensity(n);
    rows.push({
      N: h.n,
      completed: `${h.completed}/${h.n}`,
      'codex PSS MB / session': f1(h.codexPssMbPerSession),
      'codex RSS MB / group (median)': f1(h.codexRssMbPerGroup),
      'runtime heap KB / session': f1(h.runtimeHeapKbPerSession),
      'runtime RSS MB / session': f2(h.runtimeRssMbPerSession),
      'runtime base RSS MB': f1(h.runtimeBaseRssMb),
      'MB / session': f1(h.mbPerSession),
      'sessions per 24 GiB': h.sessionsPer24GiB,
      'left after shutdown': h.left,
    });
  }
  say(
    '\n## What one host holds\nN idle runtime sessions (SQLite log, persistence thread), each with its codex app-server after one scripted turn; codex PSS summed over all its processes, runtime growth after GC\n',
  );
  say(markdownTable(rows));
}

say(`\nbench finished in ${f1((performance.now() - t0) / 1000)} s`);
