/**
 * Issue 14 transcripts: recorded by `npm run protocol:record` on the baseline in force when they
 * were recorded; the newest allowlisted release that holds a scenario is replayed (no release
 * is named here).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODEX_SUPPORTED_APP_SERVER_VERSIONS } from '../../src/constants.js';
import type { ProviderHarness } from './provider-harness.js';
import { WORKSPACE } from './provider-harness.js';
import {
  loadTranscript,
  replay,
  type ReplayOptions,
  type ReplayResult,
  type TranscriptLine,
} from './replay.js';

const TRANSCRIPTS = resolve(
  fileURLToPath(new URL('.', import.meta.url)),
  '..',
  '..',
  'fixtures',
  'transcripts',
);

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export function newestReleaseWith(scenario: string): string {
  const versions = readdirSync(TRANSCRIPTS)
    .filter(
      (v) =>
        (CODEX_SUPPORTED_APP_SERVER_VERSIONS as readonly string[]).includes(v) &&
        existsSync(join(TRANSCRIPTS, v, `${scenario}.jsonl`)),
    )
    .sort(compareVersions);
  const newest = versions.at(-1);
  if (newest === undefined) throw new Error(`no recorded transcript for ${scenario}`);
  return newest;
}

export function loadRecorded(scenario: string): TranscriptLine[] {
  return loadTranscript(scenario, newestReleaseWith(scenario));
}

export function replayRecorded(
  harness: ProviderHarness,
  scenario: string,
  options: Omit<ReplayOptions, 'workspace'> = {},
): Promise<ReplayResult> {
  return replay(harness.transport, loadRecorded(scenario), { workspace: WORKSPACE, ...options });
}

export async function until(check: () => boolean, label: string, maxTurns = 4000): Promise<void> {
  for (let i = 0; i < maxTurns; i += 1) {
    if (check()) return;
    await new Promise<void>((r) => setImmediate(r));
  }
  throw new Error(`never happened: ${label}`);
}
