/**
 * Tool-activity transcripts: recorded by `npm run protocol:record` on the baseline in force when they
 * were recorded; the newest allowlisted release that holds a scenario is replayed, the oldest
 * where a test holds what the first recording showed (no release is named here).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CODEX_SUPPORTED_APP_SERVER_VERSIONS } from '../../src/constants.js';
import type { CodexProviderOptions } from '../../src/index.js';
import {
  createProviderHarness,
  recordingSink,
  replayLines,
  textInput,
  type HarnessReplayOptions,
  type ProviderHarness,
} from './provider-harness.js';
import { loadTranscript, type ReplayResult, type TranscriptLine } from './replay.js';
import { TRANSCRIPTS_DIR } from './paths.js';

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The allowlisted releases that hold a recording of `scenario`, oldest first. */
export function releasesWith(scenario: string): string[] {
  return readdirSync(TRANSCRIPTS_DIR)
    .filter(
      (v) =>
        (CODEX_SUPPORTED_APP_SERVER_VERSIONS as readonly string[]).includes(v) &&
        existsSync(join(TRANSCRIPTS_DIR, v, `${scenario}.jsonl`)),
    )
    .sort(compareVersions);
}

function endOf(scenario: string, end: 'oldest' | 'newest'): string {
  const versions = releasesWith(scenario);
  const release = end === 'oldest' ? versions[0] : versions.at(-1);
  if (release === undefined) throw new Error(`no recorded transcript for ${scenario}`);
  return release;
}

export const newestReleaseWith = (scenario: string): string => endOf(scenario, 'newest');

/** For what the first recording of a scenario showed (what codex reports differs per release). */
export const oldestReleaseWith = (scenario: string): string => endOf(scenario, 'oldest');

export function loadRecorded(scenario: string): TranscriptLine[] {
  return loadTranscript(scenario, newestReleaseWith(scenario));
}

export const replayRecorded = (
  harness: ProviderHarness,
  scenario: string,
  options: HarnessReplayOptions = {},
): Promise<ReplayResult> => replayLines(harness, loadRecorded(scenario), options);

export async function until(check: () => boolean, label: string, maxTurns = 4000): Promise<void> {
  for (let i = 0; i < maxTurns; i += 1) {
    if (check()) return;
    await new Promise<void>((r) => setImmediate(r));
  }
  throw new Error(`never happened: ${label}`);
}

/**
 * `scenario` replayed into a session opened with `options`; a run started on `input`, awaited
 * until its first interaction request. Await `replaying` at the end of the test.
 */
export async function replayedToRequest(
  options: Omit<CodexProviderOptions, 'transport'>,
  scenario: string,
  input: string,
  label = 'interaction.requested',
) {
  const h = createProviderHarness(options);
  const replaying = replayRecorded(h, scenario);
  const session = await h.openSession();
  const sink = recordingSink();
  const run = await session.startRun({ input: textInput(input), sink, runRef: 'r' });
  await until(() => sink.ofType('interaction.requested').length === 1, label);
  const [requested] = sink.ofType('interaction.requested');
  if (requested === undefined) throw new Error(`no ${label}`);
  return { h, replaying, session, sink, run, requested };
}
