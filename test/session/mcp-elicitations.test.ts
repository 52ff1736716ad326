/**
 * MCP elicitations (`mcpElicitations: 'bridge'`, ADR-0040) on frames recorded from the real
 * binary with a real MCP SDK server: codex's tool-call approval, then the server's form or URL,
 * each raised once and answered with exactly the native reply the recording shows.
 */
import { providerEventInputSchema, type InteractionResponse } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { loadRecorded, replayedToRequest, until } from '../support/recorded.js';
import { ADA_FORM_ANSWERS } from '../support/elicitation-frames.js';

function recordedReplies(scenario: string): Record<string, unknown>[] {
  return loadRecorded(scenario)
    .filter((l) => l.dir === 'c2s' && !Object.hasOwn(l.frame, 'method') && 'result' in l.frame)
    .filter((l) => typeof (l.frame.result as { action?: unknown }).action === 'string')
    .map((l) => l.frame);
}

const approveOnce: InteractionResponse = { kind: 'approval', decision: 'approved', mode: 'once' };

describe('MCP elicitations replayed from the real binary', () => {
  const cases: [string, string, InteractionResponse][] = [
    ['mcp_elicitation_form', 'question_set', ADA_FORM_ANSWERS],
    ['mcp_elicitation_url', 'approval', approveOnce],
  ];
  for (const [scenario, kind, answer] of cases) {
    it(`${scenario}: the tool approval, then the ${kind}, each answered as recorded`, async () => {
      const {
        h,
        replaying,
        session,
        sink,
        run,
        requested: call,
      } = await replayedToRequest(
        { mcpElicitations: 'bridge' },
        scenario,
        'go',
        'the tool approval',
      );
      expect(call.request).toMatchObject({ kind: 'approval', subject: { category: 'tool' } });
      await session.respondToInteraction(call.providerRef, approveOnce);
      await until(() => sink.ofType('interaction.requested').length === 2, 'the elicitation');
      const second = sink.ofType('interaction.requested')[1]!;
      expect(second.request.kind).toBe(kind);
      await session.respondToInteraction(second.providerRef, answer);
      expect(await run.completion).toEqual({ outcome: 'succeeded' });
      await replaying;
      const sent = h.transport.sent.filter(
        (f) => !Object.hasOwn(f, 'method') && (f.id === 0 || f.id === 1),
      );
      expect(sent).toEqual(recordedReplies(scenario));
      for (const e of sink.events) expect(providerEventInputSchema.safeParse(e).success).toBe(true);
      await session.dispose();
    });
  }
});
