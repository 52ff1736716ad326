/**
 * npm run protocol:record [-- [--version X.Y.Z | --binary PATH] scenario…]
 * Records the named scenarios (default: all) against a native codex and writes
 * fixtures/transcripts/<version>/<scenario>.jsonl plus index.json (other scenarios' entries are
 * kept). Without an option the pinned devDependency is used; `--version` takes the release from
 * the pinned devDependency or the ~/.cache install that `protocol:pin` made; `--binary` takes
 * any native binary and files the result under the version it reports.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireCodexBinary } from '../src/testing/index.js';
import { serializeTranscript } from './lib/transcript-writer.js';
import { recordScenario, type ScenarioRecording } from './lib/recorder.js';
import { findReleaseBinary, PLAIN_RELEASE, reportedVersion } from './lib/release-binary.js';
import { findScenario, SCENARIOS } from './lib/scenarios.js';
import { summarizeRecording, type TranscriptIndex } from './lib/transcript-index.js';

interface Target {
  readonly path: string;
  readonly version: string;
}

interface Invocation {
  readonly target: Target;
  readonly names: readonly string[];
}

const USAGE = 'usage: npm run protocol:record -- [--version X.Y.Z | --binary PATH] [scenario…]';

function parseArgs(argv: readonly string[]): Invocation {
  const names: string[] = [];
  let version: string | undefined;
  let binary: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') continue;
    if (arg === '--version' || arg === '--binary') {
      const value = argv[++i];
      if (value === undefined) throw new Error(USAGE);
      if (arg === '--version') version = value;
      else binary = value;
    } else if (arg !== undefined) {
      names.push(arg);
    }
  }
  if (version !== undefined && binary !== undefined) throw new Error(USAGE);
  if (version !== undefined) {
    if (!PLAIN_RELEASE.test(version)) throw new Error(USAGE);
    const path = findReleaseBinary(version);
    if (path === undefined)
      throw new Error(`codex ${version} not installed: run npm run protocol:pin -- ${version}`);
    return { target: { path, version: checked(path, version) }, names };
  }
  if (binary !== undefined) return { target: { path: binary, version: checked(binary) }, names };
  const pinned = requireCodexBinary({ kind: 'native' });
  return { target: { path: pinned.path, version: checked(pinned.path, pinned.version) }, names };
}

/** The binary's own `--version` decides the output folder; a mismatch is refused. */
function checked(path: string, expected?: string): string {
  const reported = reportedVersion(path);
  if (expected !== undefined && reported !== expected)
    throw new Error('binary reports a different version than its package');
  return reported;
}

async function main(): Promise<void> {
  const { target, names } = parseArgs(process.argv.slice(2));
  const scenarios = names.length === 0 ? SCENARIOS : names.map(findScenario);
  const outDir = join('fixtures', 'transcripts', target.version);
  mkdirSync(outDir, { recursive: true });
  const indexPath = join(outDir, 'index.json');
  const index: TranscriptIndex = existsSync(indexPath)
    ? (JSON.parse(readFileSync(indexPath, 'utf8')) as TranscriptIndex)
    : { codexVersion: target.version, binaryKind: 'native', scenarios: {} };

  for (const scenario of scenarios) {
    const recording: ScenarioRecording = await recordScenario(scenario, { binary: target.path });
    writeFileSync(join(outDir, `${scenario.name}.jsonl`), serializeTranscript(recording.lines));
    index.scenarios[scenario.name] = summarizeRecording(scenario, recording);
    const t = recording.timings;
    const first = t.turns[0];
    console.log(
      `${target.version} ${scenario.name}: ${recording.lines.length} frames, init ${t.initReply} ms, thread ${t.threadStartReply} ms` +
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
