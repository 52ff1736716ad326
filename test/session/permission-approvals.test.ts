/**
 * Permission requests (`permissions: 'bridge'`, ADR-0040) on frames recorded from the real
 * binary: one neutral approval with the path relative to the workspace, and the neutral answer
 * produces exactly the native reply the recording shows (the requested profile, or the empty grant).
 */
import { providerEventInputSchema } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { createProviderHarness, WORKSPACE } from '../support/provider-harness.js';
import { loadRecorded, replayedToRequest } from '../support/recorded.js';
import { GRANTED_DIR_APPROVAL } from '../support/elicitation-frames.js';

function recordedReply(scenario: string): Record<string, unknown> {
  const line = loadRecorded(scenario).find(
    (l) => l.dir === 'c2s' && !Object.hasOwn(l.frame, 'method') && Object.hasOwn(l.frame, 'id'),
  );
  if (line === undefined) throw new Error('no recorded reply');
  // the replay places the recorded `<workspace>` at the harness's workspace
  return JSON.parse(JSON.stringify(line.frame).split('<workspace>').join(WORKSPACE)) as Record<
    string,
    unknown
  >;
}

describe('permission requests replayed from the real binary', () => {
  it('the descriptor declares the bridge and the thread runs on-request', () => {
    const d = createProviderHarness({ permissions: 'bridge' }).provider.describe();
    expect(d.interaction.approval).toEqual({
      supported: true,
      modes: ['once', 'session'],
      blocking: true,
    });
    expect(d.extensions).toMatchObject({
      declaredApprovalPolicy: 'on-request',
      bridgedServerRequests: ['item/permissions/requestApproval'],
    });
  });

  for (const [scenario, response] of [
    ['permissions_grant_turn', { kind: 'approval', decision: 'approved', mode: 'once' }],
    ['permissions_empty_grant', { kind: 'approval', decision: 'denied' }],
  ] as const) {
    it(`${scenario}: one approval, workspace-relative, one native reply as recorded`, async () => {
      const { h, replaying, session, sink, run, requested } = await replayedToRequest(
        { permissions: 'bridge' },
        scenario,
        'write',
      );
      expect(requested.request).toEqual(GRANTED_DIR_APPROVAL);
      expect(JSON.stringify(sink.events)).not.toContain(WORKSPACE);
      await session.respondToInteraction(requested.providerRef, response);
      await session.respondToInteraction(requested.providerRef, response);
      expect(await run.completion).toEqual({ outcome: 'succeeded' });
      await replaying;
      expect(h.transport.sent.filter((f) => f.id === 0 && !Object.hasOwn(f, 'method'))).toEqual([
        recordedReply(scenario),
      ]);
      for (const e of sink.events) expect(providerEventInputSchema.safeParse(e).success).toBe(true);
      await session.dispose();
    });
  }
});
