/**
 * npm run protocol:record [-- scenario…]
 * Records the named scenarios (default: all) against the pinned native codex and writes
 * fixtures/transcripts/<version>/<scenario>.jsonl plus index.json.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireCodexBinary, serializeTranscript } from '../src/testing/index.js';
import { recordScenario, type ScenarioRecording } from './lib/recorder.js';
import { findScenario, SCENARIOS } from './lib/scenarios.js';
import { summarizeRecording, type TranscriptIndex } from './lib/transcript-index.js';

async function main(): Promise<void> {
  const names = process.argv.slice(2).filter((a) => a !== '--');
  const scenarios = names.length === 0 ? SCENARIOS : names.map(findScenario);
  const binary = requireCodexBinary({ kind: 'native' });
  const outDir = join('fixtures', 'transcripts', binary.version);
  mkdirSync(outDir, { recursive: true });
  const indexPath = join(outDir, 'index.json');
  const index: TranscriptIndex = existsSync(indexPath)
    ? (JSON.parse(readFileSync(indexPath, 'utf8')) as TranscriptIndex)
    : { codexVersion: binary.version, binaryKind: 'native', scenarios: {} };

  for (const scenario of scenarios) {
    const recording: ScenarioRecording = await recordScenario(scenario, { binary: binary.path });
    writeFileSync(join(outDir, `${scenario.name}.jsonl`), serializeTranscript(recording.lines));
    index.scenarios[scenario.name] = summarizeRecording(scenario, recording);
    const t = recording.timings;
    const first = t.turns[0];
    console.log(
      `${scenario.name}: ${recording.lines.length} frames, init ${t.initReply} ms, thread ${t.threadStartReply} ms` +
        (first === undefined
          ? ''
          : `, first delta ${first.firstDelta ?? '-'} ms, turn/completed ${first.turnCompleted} ms (${first.turnStatus})`) +
        `, model requests ${recording.modelRequests}, exit ${recording.exitCode ?? 'signal'}`,
    );
  }
  const sorted = Object.fromEntries(
    Object.entries(index.scenarios).sort(([a], [b]) => a.localeCompare(b)),
  );
  writeFileSync(indexPath, JSON.stringify({ ...index, scenarios: sorted }, null, 2) + '\n');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : 'protocol:record failed');
  process.exitCode = 1;
});
