/**
 * The review's verdict is what the adapter publishes: a recording is replayed to
 * `createCodexProvider` and its events compared with those the baseline's recording gives. Fed
 * here with the baseline's recordings and edited copies of them.
 */
import { describe, expect, it } from 'vitest';
import {
  comparePublished,
  publishedSignatures,
  RECORDINGS_ON_DIFFERENCE,
  settleRecordings,
  type PublishedComparison,
} from '../../scripts/lib/review/published.js';
import { isReplayable, publishReplay } from '../../scripts/lib/review/publish-replay.js';
import { readReport, verdictOf } from '../../scripts/lib/review/report.js';
import { compareSequences } from '../../scripts/lib/review/sequences.js';
import { SCENARIOS } from '../../scripts/lib/scenarios.js';
import { CODEX_APP_SERVER_VERSION } from '../../src/constants.js';
import { join } from 'node:path';
import { loadTranscript, statusItemRace, type TranscriptLine } from '../support/replay.js';
import { REPO_ROOT } from '../support/paths.js';

const BASELINE = CODEX_APP_SERVER_VERSION;
/** A release the adapter does not accept unless told to (the review tells it). */
const OTHER = '0.0.1';

const withParams = (
  line: TranscriptLine,
  edit: (params: Record<string, unknown>) => Record<string, unknown>,
): TranscriptLine => ({
  ...line,
  frame: { ...line.frame, params: edit(line.frame.params as Record<string, unknown>) },
});

/** The verdict of the baseline's own report with one scenario's published comparison replaced. */
function baselineVerdictWith(scenario: string, comparison: PublishedComparison): string {
  const report = readReport(join(REPO_ROOT, 'fixtures', 'compat'), BASELINE);
  if (report === undefined) throw new Error('no baseline report');
  const { verdict: _verdict, ...evidence } = report;
  return verdictOf({ ...evidence, published: { ...evidence.published, [scenario]: comparison } });
}

/** The recording with its frames renumbered in order (the transcript reader's invariant). */
const renumber = (lines: readonly TranscriptLine[]): TranscriptLine[] =>
  lines.map((l, seq) => ({ ...l, seq }));

describe('published events decide; frames the adapter ignores do not', () => {
  it('a recording differing only in ignored frames and their order passes, naming the frames as evidence', async () => {
    const recorded = loadTranscript('approval_decline', BASELINE);
    // an ignored notification moved, another added, a third dropped
    const { status, swapped: edited } = statusItemRace(recorded);
    expect(status).toBeGreaterThan(0);
    edited.splice(status, 0, {
      ...recorded[status]!,
      frame: { method: 'thread/new/thing', params: {} },
    });
    const dropped = edited.findIndex((l) => l.frame.method === 'remoteControl/status/changed');
    expect(dropped).toBeGreaterThan(0);
    edited.splice(dropped, 1);
    const candidate = renumber(edited);

    expect(compareSequences(recorded, candidate).status).toBe(
      'differs only in ignored notifications',
    );
    const published = await comparePublished(recorded, BASELINE, candidate, OTHER);
    expect(published).toEqual({ status: 'same', differences: [] });
  });

  it('a recording whose published events differ fails, naming the event', async () => {
    const recorded = loadTranscript('text_turn', BASELINE);
    // the same frames (texts are not part of a frame sequence), another streamed text
    const candidate = recorded.map((l) =>
      l.frame.method === 'item/agentMessage/delta'
        ? withParams(l, (p) => ({ ...p, delta: String(p.delta).toUpperCase() }))
        : l,
    );
    expect(compareSequences(recorded, candidate)).toEqual({ status: 'same', differences: [] });
    const published = await comparePublished(recorded, BASELINE, candidate, OTHER);
    expect(published).toEqual({
      status: 'differs',
      differences: [
        '- run 1 run.message_delta "Hello world"',
        '+ run 1 run.message_delta "HELLO WORLD"',
      ],
    });
    // the verdict names the scenario and the event
    expect(baselineVerdictWith('text_turn', published)).toBe(
      'fail (published events differ: text_turn (run.message_delta))',
    );
  });

  it('the same failure classified another way is reported, and does not fail the review', async () => {
    const recorded = loadTranscript('http_500', BASELINE);
    const reclassify = (p: Record<string, unknown>): Record<string, unknown> =>
      JSON.parse(JSON.stringify(p).replaceAll('"internalServerError"', '"unauthorized"')) as Record<
        string,
        unknown
      >;
    const candidate = recorded.map((l) =>
      l.frame.method === 'error' || l.frame.method === 'turn/completed'
        ? withParams(l, reclassify)
        : l,
    );
    expect(compareSequences(recorded, candidate).status).toBe('differs only in codexErrorInfo');
    const published = await comparePublished(recorded, BASELINE, candidate, OTHER);
    expect(published.status).toBe('differs only in failure classification');
    expect(published.differences).toContainEqual(
      expect.stringMatching(/^\+ run 1 run\.end .*"providerCode":"unauthorized"/),
    );
    expect(baselineVerdictWith('http_500', published)).toBe('pass');
    // a run that ends otherwise than failed is not a classification
    const succeeded = candidate.map((l) =>
      l.frame.method === 'turn/completed'
        ? withParams(l, (p) => ({
            ...p,
            turn: { ...(p.turn as object), status: 'completed', error: null },
          }))
        : l,
    );
    expect((await comparePublished(recorded, BASELINE, succeeded, OTHER)).status).toBe('differs');
  });

  it("a command's output byte count is not compared: codex's aggregate can miss chunks", async () => {
    const recorded = loadTranscript('tool_activity', BASELINE);
    const candidate = recorded.map((l) =>
      l.frame.method === 'item/completed'
        ? withParams(l, (p) => ({ ...p, item: { ...(p.item as object), aggregatedOutput: null } }))
        : l,
    );
    expect(await comparePublished(recorded, BASELINE, candidate, OTHER)).toEqual({
      status: 'same',
      differences: [],
    });
  });

  it('message deltas are compared as one text, ids and references are not compared', async () => {
    const recorded = loadTranscript('approval_accept', BASELINE);
    const { published, failure } = await publishReplay(recorded, BASELINE);
    expect(failure).toBeUndefined();
    const signatures = publishedSignatures(published);
    expect(signatures.filter((s) => s.includes('run.message_delta'))).toHaveLength(1);
    expect(signatures.join('\n')).not.toMatch(/providerRef|approval-[0-9a-f]{8}-/);
    expect(signatures.at(-1)).toBe('run 1 run.end {"outcome":"succeeded"}');
  });

  it('raw protocol probes and resumed threads are not replayed (their frames decide)', async () => {
    expect(isReplayable(loadTranscript('protocol_errors', BASELINE))).toBe(false);
    expect(isReplayable(loadTranscript('resume', BASELINE))).toBe(false);
    const probe = loadTranscript('protocol_errors', BASELINE);
    expect(await comparePublished(probe, BASELINE, probe, OTHER)).toEqual({
      status: 'not replayed',
      differences: [],
    });
  });
});

describe('a scenario recorded again when it differs', () => {
  const differs: PublishedComparison = {
    status: 'differs',
    differences: ['+ run 1 run.tool_activity {"phase":"invoked"}'],
  };
  const same: PublishedComparison = { status: 'same', differences: [] };

  it('one agreeing recording: a race inside codex, kept as evidence, not a failure', () => {
    const settled = settleRecordings([differs, same]);
    expect(settled).toEqual({
      status: 'differs in some recordings',
      differences: [
        '1 of 2 recordings differ; the rest agree with the baseline',
        ...differs.differences,
      ],
    });
    expect(baselineVerdictWith('permissions_empty_grant', settled)).toBe('pass');
  });

  it('every recording differing: the first comparison stands and fails, naming the event', () => {
    const settled = settleRecordings(
      Array.from({ length: RECORDINGS_ON_DIFFERENCE }, () => differs),
    );
    expect(settled).toEqual(differs);
    expect(baselineVerdictWith('permissions_empty_grant', settled)).toBe(
      'fail (published events differ: permissions_empty_grant (run.tool_activity))',
    );
  });

  it('a first recording that agrees is not recorded again', () => {
    expect(settleRecordings([same])).toEqual(same);
  });
});

describe('a scenario whose frames are evidence only', () => {
  const report = () => {
    const r = readReport(join(REPO_ROOT, 'fixtures', 'compat'), BASELINE);
    if (r === undefined) throw new Error('no baseline report');
    const { verdict: _verdict, ...evidence } = r;
    return evidence;
  };
  const withSteer = (status: 'differs' | 'differs (evidence only)') => {
    const evidence = report();
    return verdictOf({
      ...evidence,
      scenarios: { ...evidence.scenarios, steer: { status, differences: ['+ s2c notify x'] } },
      published: { ...evidence.published, steer: { status: 'not replayed', differences: [] } },
    });
  };

  it('steer is one, with its reason; its frame difference is reported but does not fail', () => {
    expect(SCENARIOS.find((s) => s.name === 'steer')?.evidenceOnly).toMatch(/timing/);
    expect(withSteer('differs (evidence only)')).toBe('pass');
    expect(withSteer('differs')).toBe('fail (frame sequence differs: steer)');
  });
});
