/**
 * File-change approvals (`fileChanges: 'bridge'`, ADR-0015) on frames recorded from the real
 * binary: the request carries no file list, so the subject comes from the fileChange item
 * announced just before it on the same turn.
 */
import { isProviderRejection, providerEventInputSchema } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { createProviderHarness, WORKSPACE } from '../support/provider-harness.js';
import { loadRecorded, replayRecorded, until, replayedToRequest } from '../support/recorded.js';
import {
  answerRefusal,
  expectDeclinedUnbridged,
  recordedReplyLine,
  sentReplyTo,
} from '../support/session-replies.js';
import { replayedSession, runOn, type ReplayedSessionOptions } from '../support/session-runs.js';

const FILE_CHANGE = 'item/fileChange/requestApproval';
const DECLINE = 'file_change_decline';

const recordedReply = (scenario: string) => recordedReplyLine(loadRecorded(scenario)).frame;

/** `file_change_decline` replayed up to the recorded reply, the run on 'write' started. */
async function declineUpToReply(options: ReplayedSessionOptions) {
  const untilSeq = recordedReplyLine(loadRecorded(DECLINE)).seq;
  const opened = await replayedSession(DECLINE, { ...options, untilSeq });
  return { ...opened, ...(await runOn(opened.session, 'write', 'r')) };
}

describe('file-change approvals replayed from the real binary', () => {
  it('the descriptor declares the bridge truthfully and the thread runs untrusted', async () => {
    const h = createProviderHarness({ fileChanges: 'bridge' });
    const d = h.provider.describe();
    expect(d.interaction.approval).toEqual({ supported: true, modes: ['once'], blocking: true });
    expect(d.extensions).toMatchObject({
      declaredApprovalPolicy: 'untrusted',
      bridgedServerRequests: [FILE_CHANGE],
    });
    const turnStart = loadRecorded('file_change_accept').find(
      (l) => l.frame.method === 'turn/start',
    )!;
    const replaying = replayRecorded(h, 'file_change_accept', { untilSeq: turnStart.seq });
    const session = await h.openSession();
    await replaying;
    const threadStart = h.transport.sent.find((f) => f.method === 'thread/start');
    expect(threadStart?.params).toMatchObject({ approvalPolicy: 'untrusted' });
    await session.dispose();
  });

  for (const [scenario, response] of [
    ['file_change_accept', { kind: 'approval', decision: 'approved', mode: 'once' }],
    ['file_change_decline', { kind: 'approval', decision: 'denied' }],
  ] as const) {
    it(`${scenario}: one neutral approval listing the workspace-relative files, one native reply`, async () => {
      const { h, replaying, session, sink, run, requested } = await replayedToRequest(
        { fileChanges: 'bridge' },
        scenario,
        'write',
      );
      expect(requested.providerRef).toMatch(/^approval-[0-9a-f-]{36}-\d+$/);
      expect(requested.request).toEqual({
        kind: 'approval',
        subject: {
          category: 'file_write',
          summary: 'Codex requests approval to change 1 file: add notes/hello.txt',
          detail: { changes: [{ path: 'notes/hello.txt', kind: 'add' }], changeCount: 1 },
        },
        allowedModes: ['once'],
        riskHint: 'medium',
      });
      expect(JSON.stringify(sink.events)).not.toContain(WORKSPACE);
      await session.respondToInteraction(requested.providerRef, response);
      await session.respondToInteraction(requested.providerRef, response);
      expect(await run.completion).toEqual({ outcome: 'succeeded' });
      await replaying;
      expect(sentReplyTo(h.transport.sent, 0)).toEqual([recordedReply(scenario)]);
      // session mode is not offered for patches
      const late = await session
        .respondToInteraction(requested.providerRef, {
          kind: 'approval',
          decision: 'approved',
          mode: 'session',
        })
        .catch((e: unknown) => e);
      expect(isProviderRejection(late)).toBe(true);
      for (const e of sink.events) expect(providerEventInputSchema.safeParse(e).success).toBe(true);
      await session.dispose();
    });
  }

  it('a request whose fileChange item was never seen has no reviewable subject: refused -32602 on its id', async () => {
    const { h, replaying, session, sink } = await declineUpToReply({
      provider: { fileChanges: 'bridge' },
      rewrite: (frame) =>
        frame.method === 'item/started' &&
        (frame.params as { item: { type: string } }).item.type === 'fileChange'
          ? undefined
          : frame,
    });
    await replaying;
    await until(() => sentReplyTo(h.transport.sent, 0).length === 1, 'the refusal');
    expect(sentReplyTo(h.transport.sent, 0)[0]).toMatchObject({
      id: 0,
      error: { code: -32602, message: expect.stringContaining('no_reviewable_subject') },
    });
    expect(sink.ofType('interaction.requested')).toHaveLength(0);
    await session.dispose();
  });

  it('a request naming an item that was not announced is refused even when another patch was', async () => {
    const { h, replaying, session } = await declineUpToReply({
      provider: { fileChanges: 'bridge' },
      rewrite: (frame) => {
        if (frame.method !== 'item/fileChange/requestApproval') return frame;
        const params = frame.params as Record<string, unknown>;
        return { ...frame, params: { ...params, itemId: 'call_other' } };
      },
    });
    await replaying;
    await until(() => sentReplyTo(h.transport.sent, 0).length === 1, 'the refusal');
    expect(sentReplyTo(h.transport.sent, 0)[0]).toMatchObject({ error: { code: -32602 } });
    await session.dispose();
  });

  it('bridge off: the recorded request is declined -32601 and raises nothing', async () => {
    const { h, replaying, session, sink } = await declineUpToReply({
      provider: { approvals: 'bridge' },
    });
    await replaying;
    await expectDeclinedUnbridged(h, sink);
    await session.dispose();
  });

  it('an unanswered patch approval is withdrawn when the run is interrupted (retired with decline)', async () => {
    const { h, replaying, session, sink, run } = await declineUpToReply({
      provider: { fileChanges: 'bridge' },
    });
    await until(() => sink.ofType('interaction.requested').length === 1, 'interaction.requested');
    await replaying;
    const interrupting = run.interrupt('stop');
    await until(() => sentReplyTo(h.transport.sent, 0).length === 1, 'the retirement reply');
    expect(sentReplyTo(h.transport.sent, 0)[0]).toEqual({ id: 0, result: { decision: 'decline' } });
    const [requested] = sink.ofType('interaction.requested');
    const late = await answerRefusal(session, requested!.providerRef, {
      kind: 'approval',
      decision: 'approved',
      mode: 'once',
    });
    expect(late).toBe('unknown_interaction');
    void interrupting.catch(() => undefined);
    await session.dispose();
  });
});
