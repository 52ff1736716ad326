/**
 * Every settlement is visible (docs/behaviour.md §9.8): what an interrupt, the run's end or
 * disposal answers on the host's behalf is published as `interaction.withdrawn` on the run's sink,
 * before the run's completion, so a UI never has to infer it from the outcome.
 */
import { describe, expect, it } from 'vitest';
import type { ProviderEventInput } from '@relvo-labs/agent-provider';
import { colorQuestion } from '../support/interaction-frames.js';
import {
  commandApproval,
  completed,
  interruptAcknowledged,
  openedHarness,
  push,
  startBound,
  userInputRequest,
} from '../support/provider-frames.js';
import { trailOf } from '../support/session-runs.js';

/** The run's interaction events in order, as `requested <ref>` / `withdrawn <ref>`. */
const interactionTrail = (events: readonly ProviderEventInput[]): string[] =>
  trailOf(events, (p) =>
    p.type === 'interaction.requested' || p.type === 'interaction.withdrawn'
      ? `${p.type === 'interaction.requested' ? 'requested' : 'withdrawn'} ${p.providerRef}`
      : undefined,
  );

describe('settlements a host did not make are published', () => {
  it('an interrupt withdraws the pending approval and question at once, before the acknowledgement', async () => {
    const { h, session } = await openedHarness({ approvals: 'bridge', questions: 'bridge' });
    const { run, sink } = await startBound(h, session, 't1');
    await push(h.transport, commandApproval(0), userInputRequest(1, 't1', [colorQuestion()]));
    const [approval, asked] = sink.ofType('interaction.requested');
    const interrupting = run.interrupt('stop');
    // synchronous with the decline codex receives: nothing waits on codex's acknowledgement
    expect(interactionTrail(sink.events)).toEqual([
      `requested ${approval!.providerRef}`,
      `requested ${asked!.providerRef}`,
      `withdrawn ${approval!.providerRef}`,
      `withdrawn ${asked!.providerRef}`,
    ]);
    await interruptAcknowledged(h, run);
    await interrupting;
    await push(h.transport, completed('t1', 'interrupted'));
    expect(await run.completion).toMatchObject({ outcome: 'interrupted' });
    // a late answer is refused as before
    await expect(
      session.respondToInteraction(approval!.providerRef, { kind: 'approval', decision: 'denied' }),
    ).rejects.toMatchObject({ agentError: { code: 'unknown_interaction' } });
    await session.dispose();
  });

  it('a turn that completes with an approval unanswered: withdrawn before the completion', async () => {
    const { h, session } = await openedHarness({ approvals: 'bridge' });
    const { run, sink } = await startBound(h, session, 't1');
    await push(h.transport, commandApproval(3));
    const [approval] = sink.ofType('interaction.requested');
    let completedAt = -1;
    void run.completion.then(() => {
      completedAt = sink.events.length;
    });
    await push(h.transport, completed('t1', 'completed'));
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(interactionTrail(sink.events)).toEqual([
      `requested ${approval!.providerRef}`,
      `withdrawn ${approval!.providerRef}`,
    ]);
    expect(completedAt).toBe(sink.events.length);
    await session.dispose();
  });

  it('disposal withdraws what is pending; an answered approval is not withdrawn', async () => {
    const { h, session } = await openedHarness({ approvals: 'bridge' });
    const { sink } = await startBound(h, session, 't1');
    await push(h.transport, commandApproval(4), commandApproval(5));
    const [answered, pending] = sink.ofType('interaction.requested');
    await session.respondToInteraction(answered!.providerRef, {
      kind: 'approval',
      decision: 'denied',
    });
    await session.dispose();
    expect(sink.ofType('interaction.withdrawn')).toEqual([
      { type: 'interaction.withdrawn', providerRef: pending!.providerRef },
    ]);
  });
});
