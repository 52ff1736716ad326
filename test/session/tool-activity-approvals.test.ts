/**
 * Tool activity never reports a command as invoked before it was approved. codex announces an
 * approval-gated command (`item/started`, no process yet) before it asks (recorded:
 * item/started → requestApproval → the answer → item/completed); replayed here with tool activity
 * on, the `invoked` comes after the approval, and never for a denial.
 */
import type { ProviderEventInput } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { until } from '../support/recorded.js';
import { replayedSession, runOn, trailOf } from '../support/session-runs.js';

/** Interaction requests and tool phases, in the order the run's sink saw them. */
const trail = (events: readonly ProviderEventInput[]): string[] =>
  trailOf(events, (payload) => {
    if (payload.type === 'interaction.requested') return 'approval requested';
    if (payload.type === 'run.tool_activity') return `${payload.toolName} ${payload.phase}`;
    return undefined;
  });

describe('an approval-gated command in tool activity (recorded frames)', () => {
  for (const [scenario, decision, expected] of [
    ['approval_accept', 'approved', ['approval requested', 'command invoked', 'command succeeded']],
    ['approval_decline', 'denied', ['approval requested', 'command failed']],
  ] as const) {
    it(`${scenario}: nothing is invoked while the approval waits; ${decision} → ${expected.slice(1).join(', ')}`, async () => {
      const { replaying, session } = await replayedSession(scenario, {
        provider: { approvals: 'bridge', toolActivity: 'redacted' },
        release: 'pinned',
      });
      const { run, sink } = await runOn(session, 'run it', 'r');
      await until(() => sink.ofType('interaction.requested').length === 1, 'the approval');
      // codex has announced the command already; it has not run
      expect(trail(sink.events)).toEqual(['approval requested']);
      const [requested] = sink.ofType('interaction.requested');
      await session.respondToInteraction(
        requested!.providerRef,
        decision === 'approved'
          ? { kind: 'approval', decision, mode: 'once' }
          : { kind: 'approval', decision },
      );
      expect((await run.completion).outcome).toBe('succeeded');
      await replaying;
      expect(trail(sink.events)).toEqual(expected);
      await session.dispose();
    });
  }
});
