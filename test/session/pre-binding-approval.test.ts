/**
 * The turn/start reply and the turn's first approval request can arrive in one read of codex's
 * stdout; the run binds only when the reply's awaiter resumes, after that read is handed on. The
 * approval is then held and raised once the run is bound — never refused as `run_not_bound`.
 * Replayed from the real binary's recording, the reply delivered right before the approval.
 */
import { describe, expect, it } from 'vitest';
import { until } from '../support/recorded.js';
import { loadTranscript } from '../support/replay.js';
import { sentReplyTo } from '../support/session-replies.js';
import { replayedSession, runOn } from '../support/session-runs.js';

describe('an approval in the same read as the turn/start reply', () => {
  it('is raised once the run is bound, and answered as the person says', async () => {
    const lines = loadTranscript('approval_accept');
    const turnStartAt = lines.find((l) => l.frame.method === 'turn/start')!.seq;
    const replyAt = lines.find(
      (l) => l.seq > turnStartAt && l.dir === 's2c' && 'result' in l.frame,
    )!.seq;
    const approvalAt = lines.find(
      (l) => l.frame.method === 'item/commandExecution/requestApproval',
    )!.seq;
    let reply: Record<string, unknown> | undefined;
    const { h, replaying, session } = await replayedSession('approval_accept', {
      provider: { approvals: 'bridge' },
      release: 'pinned',
      rewrite: (frame, line) => {
        if (line.seq === replyAt) {
          reply = frame; // kept back, then delivered with the approval
          return undefined;
        }
        if (line.seq === approvalAt) h.transport.push(reply);
        return frame;
      },
    });
    const { run, sink } = await runOn(session, 'run it', 'r');
    await until(() => sink.ofType('interaction.requested').length === 1, 'interaction.requested');
    // raised, not refused: nothing was answered for codex before the person did
    expect(sentReplyTo(h.transport.sent, 0)).toEqual([]);
    expect(JSON.stringify(sink.events)).not.toContain('run_not_bound');
    const [requested] = sink.ofType('interaction.requested');
    await session.respondToInteraction(requested!.providerRef, {
      kind: 'approval',
      decision: 'approved',
      mode: 'once',
    });
    expect((await run.completion).outcome).toBe('succeeded');
    await replaying;
    expect(sentReplyTo(h.transport.sent, 0)).toHaveLength(1);
    expect(sentReplyTo(h.transport.sent, 0)[0]).toMatchObject({ result: { decision: 'accept' } });
    await session.dispose();
  });
});
