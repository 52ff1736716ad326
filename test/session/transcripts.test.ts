import { providerEventInputSchema, providerRunTerminationSchema } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { createProviderHarness, startReplay, texts } from '../support/provider-harness.js';
import { loadTranscript } from '../support/replay.js';
import { replayedRun, replayedSession, runToEnd } from '../support/session-runs.js';

/** Everything the recorded binary streamed as assistant text in a turn, joined. */
function recordedText(scenario: string): string {
  return loadTranscript(scenario)
    .filter((l) => l.dir === 's2c' && l.frame.method === 'item/agentMessage/delta')
    .map((l) => (l.frame.params as { delta: string }).delta)
    .join('');
}

describe('replay of the real baseline transcripts', () => {
  it('text_turn: streams the recorded deltas, reports per-turn usage, succeeds', async () => {
    const { h, session, sink, termination } = await replayedRun('text_turn', 'hi', 'r1', {
      release: 'pinned',
    });
    expect(providerRunTerminationSchema.parse(termination)).toEqual({ outcome: 'succeeded' });
    const text = texts(sink);
    expect(text).toBe(recordedText('text_turn'));
    expect(text.length).toBeGreaterThan(0);
    const usage = sink.ofType('run.usage');
    expect(usage.length).toBeGreaterThan(0);
    // per-turn `last`, taken from the recorded notification
    const recordedLast = loadTranscript('text_turn')
      .filter((l) => l.frame.method === 'thread/tokenUsage/updated')
      .map(
        (l) => (l.frame.params as { tokenUsage: { last: Record<string, number> } }).tokenUsage.last,
      )
      .at(-1)!;
    expect(usage.at(-1)!.usage).toEqual({
      inputTokens: recordedLast.inputTokens,
      outputTokens: recordedLast.outputTokens,
      totalTokens: recordedLast.totalTokens,
    });
    for (const e of sink.events) expect(providerEventInputSchema.safeParse(e).success).toBe(true);
    await session.dispose();
    expect(h.transport.closeCalls).toBe(1);
  });

  it('two_turns: both runs use the one thread and succeed', async () => {
    const { h, replaying, session } = await replayedSession('two_turns', { release: 'pinned' });
    const first = await runToEnd(session, 'one', 'a');
    expect(first.termination).toEqual({ outcome: 'succeeded' });
    const second = await runToEnd(session, 'two', 'b');
    expect(second.termination).toEqual({ outcome: 'succeeded' });
    await replaying;
    const turnStarts = h.transport.sent.filter((f) => f.method === 'turn/start');
    expect(turnStarts).toHaveLength(2);
    const threadStart = h.transport.sent.filter((f) => f.method === 'thread/start');
    expect(threadStart).toHaveLength(1);
    await session.dispose();
  });

  // the provider codes of ADR-0011 (test/provider/upstream-failures.test.ts covers the rest)
  for (const [scenario, providerCode, code] of [
    ['http_500', 'upstream_unavailable', 'provider_unavailable'],
    ['stream_closed', 'stream_disconnected', 'provider_unavailable'],
    ['response_failed', 'stream_disconnected', 'provider_unavailable'],
  ] as const) {
    it(`${scenario}: fails with the classified turn error and no upstream prose`, async () => {
      const { h, session, sink, termination } = await replayedRun(scenario, 'x', 'r', {
        release: 'pinned',
      });
      expect(termination).toMatchObject({
        outcome: 'failed',
        error: { code, providerCode },
      });
      const prose = loadTranscript(scenario)
        .filter((l) => l.frame.method === 'error')
        .map((l) => (l.frame.params as { error: { message: string } }).error.message);
      expect(prose.length).toBeGreaterThan(0);
      const published = JSON.stringify([termination, sink.events, h.sessionSink.events]);
      for (const message of prose) expect(published).not.toContain(message);
      // the mid-turn error became a warning diagnostic on the run
      expect(sink.ofType('diagnostic').some((d) => d.level === 'warning')).toBe(true);
      await session.dispose();
    });
  }

  it('handshake: sends initialize with capabilities null, bare initialized, ephemeral thread/start', async () => {
    const h = createProviderHarness();
    const replaying = startReplay(h, 'handshake');
    const session = await h.openSession();
    await replaying;
    const [init, initialized, threadStart] = h.transport.sent;
    expect(init).toMatchObject({
      id: 1,
      method: 'initialize',
      params: {
        clientInfo: { name: 'relvo_agent_runtime', title: 'Relvo Agent Runtime', version: '0.1.0' },
        capabilities: null,
      },
    });
    expect(initialized).toEqual({ method: 'initialized' });
    expect(threadStart).toEqual({
      id: 2,
      method: 'thread/start',
      params: {
        cwd: '/work/replay-workspace',
        approvalPolicy: 'never',
        sandbox: 'read-only',
        ephemeral: true,
      },
    });
    await session.dispose();
  });
});
