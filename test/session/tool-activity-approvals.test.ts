/**
 * Tool activity never reports a command as invoked before it was approved. codex announces an
 * approval-gated command (`item/started`, no process yet) before it asks (recorded:
 * item/started → requestApproval → the answer → item/completed); replayed here with tool activity
 * on, the `invoked` comes after the approval, and never for a denial.
 */
import type { ProviderEventInput } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import {
  createProviderHarness,
  recordingSink,
  startReplay,
  textInput,
} from '../support/provider-harness.js';
import { until } from '../support/recorded.js';

/** Interaction requests and tool phases, in the order the run's sink saw them. */
function trail(events: readonly ProviderEventInput[]): string[] {
  return events.flatMap(({ payload }) =>
    payload.type === 'interaction.requested'
      ? ['approval requested']
      : payload.type === 'run.tool_activity'
        ? [`${payload.toolName} ${payload.phase}`]
        : [],
  );
}

describe('an approval-gated command in tool activity (recorded frames)', () => {
  for (const [scenario, decision, expected] of [
    ['approval_accept', 'approved', ['approval requested', 'command invoked', 'command succeeded']],
    ['approval_decline', 'denied', ['approval requested', 'command failed']],
  ] as const) {
    it(`${scenario}: nothing is invoked while the approval waits; ${decision} → ${expected.slice(1).join(', ')}`, async () => {
      const h = createProviderHarness({ approvals: 'bridge', toolActivity: 'redacted' });
      const replaying = startReplay(h, scenario);
      const session = await h.openSession();
      const sink = recordingSink();
      const run = await session.startRun({ input: textInput('run it'), sink, runRef: 'r' });
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
