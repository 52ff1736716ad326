/**
 * The interaction bridges through the whole adapter, on the fake transport: recorded approval
 * and request_user_input transcripts replayed end to end (the hand-built blocking questions are
 * in interaction-questions.test.ts).
 */
import { isProviderRejection, providerEventInputSchema } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { until } from '../support/recorded.js';
import { loadTranscript } from '../support/replay.js';
import {
  expectDeclinedUnbridged,
  recordedReplyLine,
  sentReplyTo,
} from '../support/session-replies.js';
import { replayedRun, replayedSession, runOn } from '../support/session-runs.js';

/** The recorded client's reply to the scenario's server request (on the pinned release). */
const recordedReply = (scenario: string) => recordedReplyLine(loadTranscript(scenario)).frame;

describe('command approvals replayed from the real binary', () => {
  for (const [scenario, response, outcome] of [
    ['approval_accept', { kind: 'approval', decision: 'approved', mode: 'once' }, 'succeeded'],
    ['approval_decline', { kind: 'approval', decision: 'denied' }, 'succeeded'],
    // the recorded server answered the user's `cancel` by interrupting; the adapter never sends
    // cancel (it declines), and the server's status still decides the outcome
    ['approval_cancel', { kind: 'approval', decision: 'denied' }, 'interrupted'],
  ] as const) {
    it(`${scenario}: one neutral approval, one native reply, the turn settles from its own status`, async () => {
      const { h, replaying, session } = await replayedSession(scenario, {
        provider: { approvals: 'bridge' },
        release: 'pinned',
      });
      const { run, sink } = await runOn(session, 'run it', 'r');
      await until(() => sink.ofType('interaction.requested').length === 1, 'interaction.requested');
      const [requested] = sink.ofType('interaction.requested');
      expect(requested!.providerRef).toMatch(/^approval-[0-9a-f-]{36}-\d+$/);
      expect(requested!.request).toMatchObject({
        kind: 'approval',
        subject: { category: 'command', detail: { command: expect.stringContaining('echo') } },
        riskHint: 'high',
      });
      // the recorded frame carries the experimental fields the stable schema omits
      const native = loadTranscript(scenario).find(
        (l) => l.frame.method === 'item/commandExecution/requestApproval',
      )!;
      expect(native.frame.params).toMatchObject({
        environmentId: 'local',
        availableDecisions: expect.any(Array),
      });

      await session.respondToInteraction(requested!.providerRef, response);
      // redelivery of the identical answer is a no-op
      await session.respondToInteraction(requested!.providerRef, response);
      const termination = await run.completion;
      await replaying;
      expect(termination.outcome).toBe(outcome);
      const replies = sentReplyTo(h.transport.sent, 0);
      expect(replies).toHaveLength(1);
      if (scenario !== 'approval_cancel') expect(replies[0]).toEqual(recordedReply(scenario));
      else expect(replies[0]).toEqual({ id: 0, result: { decision: 'decline' } });
      for (const e of sink.events) expect(providerEventInputSchema.safeParse(e).success).toBe(true);
      // after the run ended: the exact retry is still a no-op (docs/spi.md §6), a different answer
      // conflicts, and neither revives the run nor writes anything
      await session.respondToInteraction(requested!.providerRef, response);
      const other =
        response.decision === 'denied'
          ? ({ kind: 'approval', decision: 'approved', mode: 'once' } as const)
          : ({ kind: 'approval', decision: 'denied' } as const);
      const late = await session
        .respondToInteraction(requested!.providerRef, other)
        .catch((e: unknown) => e);
      expect(isProviderRejection(late) && late.agentError.code).toBe('interaction_already_settled');
      expect(sentReplyTo(h.transport.sent, 0)).toHaveLength(1);
      await session.dispose();
    });
  }

  it('approvals off: the recorded approval is declined -32601 on its own id and raises nothing', async () => {
    const { h, replaying, session } = await replayedSession('approval_decline', {
      provider: { questions: 'bridge' },
      release: 'pinned',
      // our decline is an error reply, not the recorded result: stop matching at that checkpoint
      untilSeq: recordedReplyLine(loadTranscript('approval_decline')).seq,
    });
    const { sink } = await runOn(session, 'run it', 'r');
    await replaying;
    await expectDeclinedUnbridged(h, sink);
    await session.dispose();
  });
});

describe('request_user_input replayed from the real binary', () => {
  it('the stable surface sends isBlocking:false: refused -32602 not_blocking, the turn completes', async () => {
    const { h, session, sink, termination } = await replayedRun('request_user_input', 'ask', 'q', {
      provider: { questions: 'bridge' },
      release: 'pinned',
    });
    expect(termination).toEqual({ outcome: 'succeeded' });
    const recorded = recordedReply('request_user_input') as { error: { code: number } };
    expect(sentReplyTo(h.transport.sent, 0)).toEqual([
      {
        id: 0,
        error: { code: recorded.error.code, message: expect.stringContaining('not_blocking') },
      },
    ]);
    expect(sink.ofType('interaction.requested')).toHaveLength(0);
    const warnings = h.sessionSink.ofType('diagnostic').filter((d) => d.level === 'warning');
    expect(warnings.some((d) => d.message.includes('not_blocking'))).toBe(true);
    await session.dispose();
  });
});
