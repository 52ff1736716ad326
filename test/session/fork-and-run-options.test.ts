/**
 * Fork and per-run options (ADR-0041) on frames recorded from the real binary: `fork` (a second
 * app-server forks a persisted thread through its last turn and runs a turn), `run_options` (a
 * turn with its own model/effort/summary, then one that sends the thread's defaults back),
 * `output_schema` and `steer` (what the adapter sends is what was recorded).
 */
import type { ProviderRecoveryRecord } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import {
  createProviderHarness,
  recordingSink,
  textInput,
  texts,
  WORKSPACE,
} from '../support/provider-harness.js';
import { loadRecorded, replayRecorded } from '../support/recorded.js';
import { codexRecord, threadOpaque } from '../support/recovery-records.js';
import { replayedSession, runOn, runToEnd } from '../support/session-runs.js';

const SUCCEEDED = { outcome: 'succeeded' } as const;

function forkParams(): { threadId: string; lastTurnId: string } {
  const line = loadRecorded('fork').find((l) => l.frame.method === 'thread/fork')!;
  return line.frame.params as { threadId: string; lastTurnId: string };
}

function recordOf(opaque: Record<string, unknown>): ProviderRecoveryRecord {
  return codexRecord(threadOpaque(opaque));
}

describe('forkSession (fork replayed)', () => {
  it('thread/fork through the record’s last turn; the inherited tokens are no run’s', async () => {
    const h = createProviderHarness({ persistence: 'thread' });
    const { threadId, lastTurnId } = forkParams();
    const replaying = replayRecorded(h, 'fork');
    const session = await h.provider.forkSession!(
      recordOf({
        threadId,
        lastTurnId,
        // the source thread's total after its turn (the scripted 900 input, 5 output)
        total: { inputTokens: 900, outputTokens: 5, totalTokens: 905 },
      }),
      { options: {}, workspace: { root: WORKSPACE, ownership: 'borrowed' }, sink: recordingSink() },
    );
    const sent = h.transport.sent.find((f) => f.method === 'thread/fork');
    expect(sent?.params).toMatchObject({
      threadId,
      lastTurnId,
      excludeTurns: true,
      ephemeral: false,
      cwd: WORKSPACE,
    });
    const { sink, termination } = await runToEnd(session, 'what did I say?', 'b');
    expect(termination).toEqual({ outcome: 'succeeded' });
    await replaying;
    expect(texts(sink)).toBe('You said KIWI');
    // codex reports the fork's total with the source's 900 in it: the run gets its 950 only
    expect(sink.ofType('run.usage').map((u) => u.usage.inputTokens)).toEqual([950]);
    const again = await session.exportRecoveryRecord!();
    expect((again.opaque as { threadId: string }).threadId).not.toBe(threadId);
    await session.dispose();
  });
});

describe('per-run options (run_options replayed)', () => {
  it('the own options go out on turn/start; the next run sends the model and effort back', async () => {
    const { h, replaying, session } = await replayedSession('run_options');
    const own = { model: 'other-model', effort: 'high', summary: 'detailed' } as const;
    expect((await runToEnd(session, 'own', 'a', own)).termination).toEqual(SUCCEEDED);
    // its own summary: so no config/read is needed to undo the earlier one
    const back = await runToEnd(session, 'back', 'b', { summary: 'auto' });
    expect(back.termination).toEqual(SUCCEEDED);
    await replaying;
    const starts = h.transport.sent.filter((f) => f.method === 'turn/start');
    const options = starts.map((f) => {
      const { model, effort, summary } = f.params as Record<string, unknown>;
      return { model, effort, summary };
    });
    expect(options).toEqual([
      { model: 'other-model', effort: 'high', summary: 'detailed' },
      // thread/start answered scripted-model and low
      { model: 'scripted-model', effort: 'low', summary: 'auto' },
    ]);
    await session.dispose();
  });
});

describe('steer and output schema (steer, output_schema replayed)', () => {
  it('turn/steer names the run’s own turn; the run stays one run and succeeds', async () => {
    const { h, replaying, session } = await replayedSession('steer');
    const { run, sink } = await runOn(session, 'count', 's');
    for (let i = 0; sink.ofType('run.message_delta').length === 0; i += 1) {
      if (i > 500) throw new Error('no delta replayed');
      await new Promise((r) => setTimeout(r, 2));
    }
    await run.steer!(textInput('STEER: also say nine'));
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    await replaying;
    const started = h.transport.sent.find((f) => f.method === 'turn/start');
    const steer = h.transport.sent.find((f) => f.method === 'turn/steer');
    expect(steer?.params).toMatchObject({
      input: [{ type: 'text', text: 'STEER: also say nine' }],
    });
    expect((steer?.params as { threadId: unknown }).threadId).toBe(
      (started?.params as { threadId: unknown }).threadId,
    );
    expect(texts(sink)).toContain('steered answer');
    await session.dispose();
  });

  it('outputSchema goes out on its turn only; the answer is delivered as the extension', async () => {
    const { h, replaying, session } = await replayedSession('output_schema');
    const schema = { type: 'object', required: ['answer'] };
    const json = await runToEnd(session, 'answer in JSON', 'j', { outputSchema: schema });
    expect(json.termination).toEqual(SUCCEEDED);
    const extensions = json.sink.ofType('run.extension');
    expect(extensions.map((e) => e.data)).toEqual([{ value: { answer: '42' } }]);
    expect((await runToEnd(session, 'and now plain', 'p')).termination).toEqual(SUCCEEDED);
    await replaying;
    const starts = h.transport.sent.filter((f) => f.method === 'turn/start');
    expect(starts.map((f) => (f.params as { outputSchema?: unknown }).outputSchema)).toEqual([
      schema,
      undefined,
    ]);
    await session.dispose();
  });
});
