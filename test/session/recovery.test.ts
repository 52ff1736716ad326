/**
 * Resume (`persistence: 'thread'`, ADR-0016) on frames recorded from the real binary: `resume`
 * (a second app-server resumes a persisted thread and runs a turn), `resume_unknown_thread`
 * (codex refuses) and `text_turn` for the export side.
 */
import {
  providerRecoveryRecordSchema,
  type ProviderRecoveryRecord,
} from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { placeDigest } from '../../src/session/recovery.js';
import {
  createProviderHarness,
  WORKSPACE,
  type ProviderHarness,
  texts,
} from '../support/provider-harness.js';
import type { TranscriptLine } from '../support/replay.js';
import { loadRecorded, replayRecorded } from '../support/recorded.js';
import { codexRecord, REPLAY_CODEX_HOME, threadOpaque } from '../support/recovery-records.js';
import { refusal } from '../support/refusals.js';
import { replayedRun, runOn, runToEnd } from '../support/session-runs.js';

/** The replay's stand-in for `<codex_home>` (test/support/replay.ts). */

function resumedThreadId(lines: readonly TranscriptLine[]): string {
  const line = lines.find((l) => l.frame.method === 'thread/resume')!;
  return (line.frame.params as { threadId: string }).threadId;
}

/** The turn id of the usage codex replays right after `thread/resume`. */
function replayedTurnId(lines: readonly TranscriptLine[]): string {
  const line = lines.find((l) => l.frame.method === 'thread/tokenUsage/updated')!;
  return (line.frame.params as { turnId: string }).turnId;
}

const record = codexRecord;

function opaqueFor(threadId: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return threadOpaque({ threadId, ...over });
}

function resume(h: ProviderHarness, rec: ProviderRecoveryRecord) {
  const provider = h.provider;
  if (provider.resumeSession === undefined) throw new Error('resumeSession is absent');
  return provider.resumeSession(rec, {
    options: {},
    workspace: { root: WORKSPACE, ownership: 'borrowed' },
    sink: h.sessionSink,
  });
}

describe('persistence off (default)', () => {
  it('no recovery is declared and none is offered', async () => {
    const h = createProviderHarness();
    expect(h.provider.describe().recovery).toEqual({
      exportsRecoveryRecord: false,
      resumesFromRecoveryRecord: false,
      forksFromRecoveryRecord: false,
    });
    expect('resumeSession' in h.provider).toBe(false);
    expect('forkSession' in h.provider).toBe(false);
  });
});

describe('exportRecoveryRecord (text_turn replayed)', () => {
  it('a persisted thread; the record is versioned, JSON-safe, path-free and names the thread', async () => {
    const { h, session, termination } = await replayedRun('text_turn', 'hi', 'a', {
      provider: { persistence: 'thread' },
    });
    expect(h.provider.describe().recovery).toEqual({
      exportsRecoveryRecord: true,
      resumesFromRecoveryRecord: true,
      forksFromRecoveryRecord: true,
    });
    expect(termination).toEqual({ outcome: 'succeeded' });
    const lines = loadRecorded('text_turn');
    expect(h.transport.sent.find((f) => f.method === 'thread/start')?.params).toMatchObject({
      ephemeral: false,
    });
    const exported = await session.exportRecoveryRecord!();
    expect(providerRecoveryRecordSchema.parse(exported)).toEqual(exported);
    const threadStart = lines.find(
      (l) =>
        l.dir === 's2c' &&
        (l.frame.result as { thread?: unknown } | undefined)?.thread !== undefined,
    );
    const turnStart = lines.find(
      (l) =>
        l.dir === 's2c' && (l.frame.result as { turn?: unknown } | undefined)?.turn !== undefined,
    );
    expect(exported).toEqual(
      record(
        opaqueFor((threadStart!.frame.result as { thread: { id: string } }).thread.id, {
          lastTurnId: (turnStart!.frame.result as { turn: { id: string } }).turn.id,
          // the recorded turn's thread total: a fork of the thread starts from it
          total: { inputTokens: 1200, outputTokens: 30, totalTokens: 1230 },
        }),
      ),
    );
    expect(JSON.parse(JSON.stringify(exported))).toEqual(exported);
    expect(JSON.stringify(exported)).not.toContain(WORKSPACE);
    expect(JSON.stringify(exported)).not.toContain(REPLAY_CODEX_HOME);
    await session.dispose();
  });
});

describe('resumeSession (resume replayed)', () => {
  it('thread/resume with excludeTurns; the replayed usage of the earlier turn is no run’s; the next turn runs', async () => {
    const h = createProviderHarness({ persistence: 'thread' });
    const lines = loadRecorded('resume');
    const threadId = resumedThreadId(lines);
    const replaying = replayRecorded(h, 'resume');
    const session = await resume(
      h,
      record(opaqueFor(threadId, { lastTurnId: replayedTurnId(lines) })),
    );
    const resumeFrame = h.transport.sent.find((f) => f.method === 'thread/resume');
    expect(resumeFrame?.params).toMatchObject({ threadId, excludeTurns: true, cwd: WORKSPACE });
    expect(h.transport.sent.some((f) => f.method === 'thread/start')).toBe(false);
    const { sink, termination } = await runToEnd(session, 'what did I say?', 'b');
    expect(termination).toEqual({ outcome: 'succeeded' });
    await replaying;
    expect(texts(sink)).toBe('You said PINEAPPLE-42.');
    // only this turn's usage (the scripted 950/6), never the replayed 900/5 of the earlier turn
    expect(sink.ofType('run.usage')).toEqual([
      { type: 'run.usage', usage: { inputTokens: 950, outputTokens: 6, totalTokens: 956 } },
    ]);
    // the resumed session exports a record for the same thread, now naming the new turn
    const again = await session.exportRecoveryRecord!();
    expect((again.opaque as { threadId: string }).threadId).toBe(threadId);
    await session.dispose();
  });

  it('a replayed usage that arrives while the next turn/start is pending is not attributed either', async () => {
    const h = createProviderHarness({ persistence: 'thread' });
    const lines = loadRecorded('resume');
    const usageLine = lines.find((l) => l.frame.method === 'thread/tokenUsage/updated')!;
    // hold the replayed usage back until after turn/start went out
    const replaying = replayRecorded(h, 'resume', {
      rewrite: (frame, line) => (line.seq === usageLine.seq ? undefined : frame),
    });
    const session = await resume(
      h,
      record(opaqueFor(resumedThreadId(lines), { lastTurnId: replayedTurnId(lines) })),
    );
    const started = runOn(session, 'x', 'c');
    h.transport.push(usageLine.frame);
    const { run, sink } = await started;
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    await replaying;
    expect(sink.ofType('run.usage').map((u) => u.usage.inputTokens)).toEqual([950]);
    await session.dispose();
  });
});

describe('resumeSession refusals: typed, never a silent fresh thread', () => {
  it.each([
    ['another provider', record({}, { providerId: 'claude' }), 'recovery_record_foreign'],
    [
      'another wire version',
      record(opaqueFor('t'), { wireVersion: '0.4' }),
      'recovery_record_malformed',
    ],
    [
      'an opaque part this provider did not write',
      record({ threadId: 't' }),
      'recovery_record_malformed',
    ],
    [
      'a future format version',
      record(opaqueFor('t', { version: 2 })),
      'recovery_record_malformed',
    ],
    [
      'another workspace',
      record(opaqueFor('t', { workspace: placeDigest('workspace', '/elsewhere') })),
      'recovery_workspace_mismatch',
    ],
  ])('%s: invalid_request before anything is spawned', async (_name, rec, providerCode) => {
    const h = createProviderHarness({ persistence: 'thread' });
    const error = await refusal(resume(h, rec));
    expect(error).toMatchObject({ code: 'invalid_request', providerCode });
    expect(h.transport.sent).toEqual([]);
  });

  it('another codex home: refused after initialize, before thread/resume', async () => {
    const h = createProviderHarness({ persistence: 'thread' });
    const lines = loadRecorded('resume');
    // stop right after the initialize reply: the refusal tears the connection down
    const afterInit = lines.find((l) => l.frame.method === 'configWarning')!.seq;
    const replaying = replayRecorded(h, 'resume', { untilSeq: afterInit });
    const error = await refusal(
      resume(
        h,
        record(
          opaqueFor(resumedThreadId(lines), {
            codexHome: placeDigest('codex-home', '/other/.codex'),
          }),
        ),
      ),
    );
    await replaying;
    expect(error).toMatchObject({
      code: 'invalid_request',
      providerCode: 'recovery_codex_home_mismatch',
    });
    expect(h.transport.sent.map((f) => f.method)).not.toContain('thread/resume');
    expect(h.transport.sent.map((f) => f.method)).not.toContain('thread/start');
  });

  it('an unknown thread (recorded: codex answers -32600 "no rollout found"): recovery_thread_unknown, no echo', async () => {
    const h = createProviderHarness({ persistence: 'thread' });
    const lines = loadRecorded('resume_unknown_thread');
    const replaying = replayRecorded(h, 'resume_unknown_thread');
    const error = await refusal(resume(h, record(opaqueFor(resumedThreadId(lines)))));
    await replaying;
    expect(error).toMatchObject({
      code: 'invalid_request',
      providerCode: 'recovery_thread_unknown',
    });
    expect(JSON.stringify(error)).not.toContain('rollout');
    expect(JSON.stringify(error)).not.toContain(resumedThreadId(lines));
    expect(h.transport.sent.map((f) => f.method)).not.toContain('thread/start');
  });
});
