/**
 * The review's two comparisons on checked-in evidence: the schema diff restricted to what the
 * adapter reads or writes (on the baseline's tree, the only one checked in; an older release's
 * diff is read from its report), and the normalised frame-sequence comparison.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaJsonDir } from '../../scripts/lib/review/pin.js';
import { adapterRoots, loadSurface, reachable } from '../../scripts/lib/review/protocol-surface.js';
import { diffSurfaces } from '../../scripts/lib/review/schema-diff.js';
import { normalizedSequence } from '../../scripts/lib/sequence.js';
import { compareSequences, normalizeAdapterRaces } from '../../scripts/lib/review/sequences.js';
import { CODEX_APP_SERVER_MIN_VERSION, CODEX_APP_SERVER_VERSION } from '../../src/constants.js';
import { readReport } from '../../scripts/lib/review/report.js';
import { releasesWith } from '../support/recorded.js';
import { loadTranscript, statusItemRace } from '../support/replay.js';
import { REPO_ROOT, SCHEMAS_DIR } from '../support/paths.js';

describe('schema diff restricted to the adapter surface', () => {
  const next = loadSurface(schemaJsonDir(SCHEMAS_DIR, CODEX_APP_SERVER_VERSION));

  it('starts from the methods the adapter uses and reaches the types they carry', () => {
    const roots = adapterRoots(next);
    expect(roots).toEqual(
      expect.arrayContaining([
        'InitializeParams',
        'InitializeResponse',
        'v2/ThreadStartParams',
        'v2/TurnStartParams',
        'v2/TurnInterruptParams',
        'CommandExecutionRequestApprovalParams',
        'CommandExecutionRequestApprovalResponse',
        'ToolRequestUserInputParams',
        'v2/ThreadResumeParams',
        'v2/ThreadResumeResponse',
        'FileChangeRequestApprovalParams',
        'FileChangeRequestApprovalResponse',
        'v2/ErrorNotification',
        'v2/TurnCompletedNotification',
      ]),
    );
    expect(reachable(next)).toContain('v2/CodexErrorInfo');
    expect(reachable(next)).not.toContain('v2/FsReadFileParams');
  });

  it("the window's first release records CodexErrorInfo's restructure as members plus a catch-all", () => {
    // the window's first release diffed against the baseline, as its review recorded it
    const report = readReport(join(REPO_ROOT, 'fixtures', 'compat'), CODEX_APP_SERVER_MIN_VERSION);
    const changes = (report?.schemaDiff.types ?? []).filter((t) => t.type === 'v2/CodexErrorInfo');
    expect(changes).toHaveLength(1);
    expect(changes[0]?.change).toMatch(/^members removed .*"flexUnavailable".*, catch-all\(/);
    expect(changes[0]?.change).toContain('"modelNotFound"');
    expect(changes[0]?.change).toContain('"policyCapacityUnavailable"');
  });

  it('an identical schema has no changes, and a removed method the adapter sends is reported', () => {
    expect(diffSurfaces(next, next)).toEqual({
      methods: [],
      types: [],
      otherMethods: { added: [], removed: [] },
    });
    const without = {
      ...next,
      clientRequests: Object.fromEntries(
        Object.entries(next.clientRequests).filter(([m]) => m !== 'turn/interrupt'),
      ),
    };
    expect(diffSurfaces(next, without).methods).toEqual(['client request removed: turn/interrupt']);
  });
});

describe('frame-sequence comparison', () => {
  const lines = loadTranscript('approval_decline', CODEX_APP_SERVER_VERSION);

  it('a recording equals itself', () => {
    expect(compareSequences(lines, lines)).toEqual({ status: 'same', differences: [] });
  });

  it('tolerates the status/item race of approval_decline (an ignored notification moves)', () => {
    const { status, swapped } = statusItemRace(lines);
    expect(status).toBeGreaterThan(0);
    expect(compareSequences(lines, swapped).status).toBe('same');
  });

  it('reports a failure classified differently (codexErrorInfo) without failing', () => {
    const failed = loadTranscript('http_500', CODEX_APP_SERVER_VERSION);
    const reclassified = failed.map((l) =>
      l.frame.method === 'error'
        ? {
            ...l,
            frame: {
              ...l.frame,
              params: {
                ...(l.frame.params as Record<string, unknown>),
                error: { message: 'x', codexErrorInfo: 'other' },
              },
            },
          }
        : l,
    );
    const result = compareSequences(failed, reclassified);
    expect(result.status).toBe('differs only in codexErrorInfo');
    expect(result.differences).toEqual([
      '- s2c notify error:willRetry=false:internalServerError',
      '+ s2c notify error:willRetry=false:other',
    ]);
    const dropped = compareSequences(
      failed,
      failed.filter((l) => l.frame.method !== 'error'),
    );
    expect(dropped.status).toBe('differs');
  });

  it('fails on a missing frame the adapter reads, and only notes an extra ignored one', () => {
    const noResolved = lines.filter((l) => l.frame.method !== 'serverRequest/resolved');
    const missing = compareSequences(lines, noResolved);
    expect(missing.status).toBe('differs');
    expect(missing.differences).toEqual(['- s2c notify serverRequest/resolved']);
    const extra = [...lines, { ...lines[2]!, frame: { method: 'thread/new/thing', params: {} } }];
    expect(compareSequences(lines, extra)).toEqual({
      status: 'differs only in ignored notifications',
      differences: ['~ s2c notify thread/new/thing: 0 → 1'],
    });
  });
});

describe('races normalised in the adapter view, on recorded frames', () => {
  type Line = (typeof interrupted)[number];
  const interrupted = loadTranscript('interrupt', CODEX_APP_SERVER_VERSION);
  const tools = loadTranscript('tool_activity', CODEX_APP_SERVER_VERSION);
  const sig = (l: Line): string => normalizedSequence([l])[0] ?? '';
  const indexOf = (lines: readonly Line[], from: number, pred: (l: Line) => boolean): number =>
    lines.findIndex((l, i) => i >= from && pred(l));
  const move = (lines: readonly Line[], from: number, to: number): Line[] => {
    const out = [...lines];
    const [moved] = out.splice(from, 1);
    out.splice(to, 0, moved!);
    return out;
  };

  const view = (lines: readonly Line[]): string[] =>
    normalizedSequence(lines).filter((s) => !s.includes('rateLimits') && !s.includes('status'));
  const afterInterrupt = (raw: readonly string[]): string | undefined =>
    raw[raw.indexOf('c2s request turn/interrupt') + 1];
  // the recordings in which codex sent one more delta after turn/interrupt (such a recording
  // failed a review before this race was normalised)
  const deltaInFlight = releasesWith('interrupt')
    .map((release) => loadTranscript('interrupt', release))
    .filter((recorded) => afterInterrupt(view(recorded)) === 's2c notify item/agentMessage/delta');

  it('the agentMessage delta in flight when the client interrupted is the same run', () => {
    expect(deltaInFlight.length).toBeGreaterThan(0);
    for (const recorded of deltaInFlight) {
      const raw = view(recorded);
      const cut = raw.indexOf('c2s request turn/interrupt');
      expect(raw.slice(cut - 1, cut + 3)).toEqual([
        's2c notify item/agentMessage/delta',
        'c2s request turn/interrupt',
        's2c notify item/agentMessage/delta',
        's2c reply turn/interrupt result',
      ]);
      expect(normalizeAdapterRaces(raw)).toEqual(normalizeAdapterRaces(view(interrupted)));
      expect(compareSequences(interrupted, recorded)).toEqual({ status: 'same', differences: [] });
    }
  });

  it('a delta after the interrupt reply, or after an interrupt of a silent turn, still differs', () => {
    const reply = indexOf(interrupted, 0, (l) => sig(l) === 's2c reply turn/interrupt result');
    const delta = interrupted.find((l) => l.frame.method === 'item/agentMessage/delta')!;
    const late = [...interrupted.slice(0, reply + 1), delta, ...interrupted.slice(reply + 1)];
    expect(compareSequences(interrupted, late)).toEqual({
      status: 'differs',
      differences: ['+ s2c notify item/agentMessage/delta'],
    });
    const silent = ['c2s request turn/interrupt', 's2c notify item/agentMessage/delta'];
    expect(normalizeAdapterRaces(silent)).toEqual(silent);
  });

  it("a response's usage after the completion of the command it started is the same sequence", () => {
    const failed = indexOf(tools, 0, (l) =>
      sig(l).startsWith('s2c notify item/completed:commandExecution/failed'),
    );
    const usage = tools
      .slice(0, failed)
      .findLastIndex((l) => l.frame.method === 'thread/tokenUsage/updated');
    expect(usage).toBeGreaterThan(0);
    // the order a re-recording of the baseline produced: the command completed before the usage report
    const raced = move(tools, usage, failed);
    expect(sig(raced[failed]!)).toBe('s2c notify thread/tokenUsage/updated');
    expect(normalizedSequence(raced)).not.toEqual(normalizedSequence(tools));
    expect(compareSequences(tools, raced)).toEqual({ status: 'same', differences: [] });
  });

  it('usage moved past anything but a local tool completion, or lost, still differs', () => {
    const usage = tools.findLastIndex((l) => l.frame.method === 'thread/tokenUsage/updated');
    const done = indexOf(tools, 0, (l) => sig(l) === 's2c notify turn/completed:completed');
    expect(compareSequences(tools, move(tools, usage, done)).status).toBe('differs');
    expect(
      compareSequences(
        tools,
        tools.filter((_, i) => i !== usage),
      ),
    ).toEqual({
      status: 'differs',
      differences: ['- s2c notify thread/tokenUsage/updated'],
    });
  });

  it("a command's output chunks are not counted: their number depends on pipe pacing", () => {
    const started = indexOf(tools, 0, (l) =>
      sig(l).startsWith('s2c notify item/started:commandExecution'),
    );
    const chunk = {
      ...tools[started]!,
      frame: { method: 'item/commandExecution/outputDelta', params: { delta: 'x' } },
    };
    const chunked = [...tools.slice(0, started + 1), chunk, chunk, ...tools.slice(started + 1)];
    expect(compareSequences(tools, chunked)).toEqual({ status: 'same', differences: [] });
  });
});
