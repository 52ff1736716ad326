/**
 * Re-records text_turn and approval_accept against the codex under test and checks that the
 * frame SEQUENCE matches the baseline's checked-in transcripts, under the normalisation documented in
 * scripts/lib/sequence.ts (racy windows sorted, delta runs collapsed; ids and times ignored).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordScenario } from '../../scripts/lib/recorder.js';
import { findScenario } from '../../scripts/lib/scenarios.js';
import { frameSignatures, normalizedSequence } from '../../scripts/lib/sequence.js';
import { CODEX_APP_SERVER_VERSION } from '../../src/constants.js';
import { parseTranscript, requireCodexBinary } from '../../src/testing/index.js';
import { testEnv } from '../support/processes.js';

const binary = requireCodexBinary({ kind: 'native' });
const checkedIn = (name: string) =>
  parseTranscript(
    readFileSync(
      join('fixtures', 'transcripts', CODEX_APP_SERVER_VERSION, `${name}.jsonl`),
      'utf8',
    ),
  );

describe('re-recording matches the checked-in transcripts', () => {
  it.each(['text_turn', 'approval_accept'])('%s', async (name) => {
    const fresh = await recordScenario(findScenario(name), {
      binary: binary.path,
      baseEnv: testEnv(),
    });
    const expected = normalizedSequence(checkedIn(name));
    expect(normalizedSequence(fresh.lines)).toEqual(expected);
    expect(fresh.exitCode).toBe(0);
    expect(expected).toContain('s2c notify turn/completed:completed');
  });
});

describe('normalizedSequence', () => {
  const lines = checkedIn('text_turn');
  const signatures = frameSignatures(lines);
  const at = (sig: string) => signatures.indexOf(sig);
  const swap = (i: number, j: number) => {
    const copy = [...lines];
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    return copy;
  };

  it('tolerates the turn/start reply arriving after turn/started', () => {
    const reply = at('s2c reply turn/start result');
    const started = at('s2c notify turn/started');
    expect(reply).toBeGreaterThan(0);
    expect(started).toBeGreaterThan(0);
    expect(normalizedSequence(swap(reply, started))).toEqual(normalizedSequence(lines));
  });

  it('still detects a real reordering (agent message completed before it started)', () => {
    const started = at('s2c notify item/started:agentMessage');
    const completed = at('s2c notify item/completed:agentMessage');
    expect(normalizedSequence(swap(started, completed))).not.toEqual(normalizedSequence(lines));
  });

  it('still detects a changed outcome', () => {
    const changed = lines.map((l) =>
      l.frame.method === 'turn/completed'
        ? { ...l, frame: { ...l.frame, params: { turn: { status: 'failed' } } } }
        : l,
    );
    expect(normalizedSequence(changed)).not.toEqual(normalizedSequence(lines));
  });
});
