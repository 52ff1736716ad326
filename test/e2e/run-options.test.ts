/**
 * Per-run model, effort and summary on the real binary (ADR-0041): codex keeps what one
 * `turn/start` sets for later turns, so the adapter sends the thread's defaults back on the next
 * run that sets none. The scripted model server sees the request of each turn.
 */
import { describe, expect, it } from 'vitest';
import { isProviderRejection } from '@relvo-labs/agent-provider';
import { textStep } from '../../src/testing/index.js';
import { DEFAULT_REASONING_EFFORT, SCRIPTED_MODEL } from '../../src/testing/codex-config.js';
import { textInput } from '../support/provider-harness.js';
import {
  openRealCodex,
  recordingSink,
  resumeAfterDispose,
  type RealCodex,
} from '../support/real-codex.js';

interface Sent {
  readonly model: unknown;
  readonly reasoning: unknown;
}

function sent(codex: RealCodex, index: number): Sent {
  const body = codex.server.requests[index]?.body as { model?: unknown; reasoning?: unknown };
  return { model: body.model, reasoning: body.reasoning };
}

async function run(
  codex: RealCodex,
  runRef: string,
  options: { model?: string; effort?: string; summary?: 'auto' | 'concise' | 'detailed' | 'none' },
): Promise<void> {
  const started = await codex.session.startRun({
    input: textInput(runRef),
    sink: recordingSink(),
    runRef,
    ...options,
  });
  expect(await started.completion).toEqual({ outcome: 'succeeded' });
}

describe('per-run model, effort and summary on the real binary', () => {
  it("one run's options reach its request; the next run gets the thread's defaults back", async () => {
    // a configured effort: thread/start answers it, so a per-run effort can be undone
    const codex = await openRealCodex({}, { extra: ['model_reasoning_effort="low"'] });
    codex.server.enqueue(textStep('one'), textStep('two'), textStep('three'), textStep('four'));
    await run(codex, 'plain', {});
    await run(codex, 'own', { model: 'other-model', effort: 'high', summary: 'detailed' });
    await run(codex, 'back', {});
    await run(codex, 'summary-only', { summary: 'none' });
    expect(sent(codex, 0)).toEqual({
      model: SCRIPTED_MODEL,
      reasoning: { effort: 'low', summary: 'auto' },
    });
    expect(sent(codex, 1)).toEqual({
      model: 'other-model',
      reasoning: { effort: 'high', summary: 'detailed' },
    });
    // without the adapter codex would send other-model / high / detailed again (measured)
    expect(sent(codex, 2)).toEqual(sent(codex, 0));
    expect(sent(codex, 3)).toEqual({ model: SCRIPTED_MODEL, reasoning: { effort: 'low' } });
  });

  it('a configured summary is what a per-run summary is undone to', async () => {
    const codex = await openRealCodex(
      {},
      { extra: ['model_reasoning_summary="concise"'], reasoningEffort: null },
    );
    codex.server.enqueue(textStep('one'), textStep('two'));
    await run(codex, 'own', { summary: 'detailed' });
    await run(codex, 'back', {});
    expect(sent(codex, 0).reasoning).toEqual({ summary: 'detailed' });
    expect(sent(codex, 1).reasoning).toEqual({ summary: 'concise' });
  });

  it('a thread resumed right after a run that set options still gets its defaults back', async () => {
    const codex = await openRealCodex(
      { persistence: 'thread' },
      { extra: ['model_reasoning_effort="low"'] },
    );
    codex.server.enqueue(textStep('one'), textStep('two'));
    await run(codex, 'own', { model: 'other-model', effort: 'high' });
    // codex answers the resume with other-model / high as the thread's own (measured)
    const resumed = await resumeAfterDispose(codex);
    try {
      const next = await resumed.startRun({
        input: textInput('back'),
        sink: recordingSink(),
        runRef: 'back',
      });
      expect(await next.completion).toEqual({ outcome: 'succeeded' });
      expect(sent(codex, 1)).toEqual({
        model: SCRIPTED_MODEL,
        reasoning: { effort: 'low', summary: 'auto' },
      });
    } finally {
      await resumed.dispose();
    }
  });

  it("codexConfigArgs' default effort makes a per-run effort restorable", async () => {
    const codex = await openRealCodex();
    codex.server.enqueue(textStep('one'), textStep('two'));
    await run(codex, 'own', { effort: 'high' });
    await run(codex, 'back', {});
    expect(sent(codex, 0)).toEqual({
      model: SCRIPTED_MODEL,
      reasoning: { effort: 'high', summary: 'auto' },
    });
    expect(sent(codex, 1)).toEqual({
      model: SCRIPTED_MODEL,
      reasoning: { effort: DEFAULT_REASONING_EFFORT, summary: 'auto' },
    });
  });

  it('an effort is refused when the thread has none to go back to; nothing is sent', async () => {
    const codex = await openRealCodex({}, { reasoningEffort: null });
    const refused = await codex.session
      .startRun({ input: textInput('x'), sink: recordingSink(), runRef: 'e', effort: 'high' })
      .catch((e: unknown) => e);
    expect(isProviderRejection(refused) && refused.agentError).toMatchObject({
      code: 'invalid_request',
      providerCode: 'run_option_not_restorable',
      details: { option: 'effort' },
    });
    const bad = await codex.session
      .startRun({ input: textInput('x'), sink: recordingSink(), runRef: 'm', model: 'a b' })
      .catch((e: unknown) => e);
    expect(isProviderRejection(bad) && bad.agentError).toMatchObject({
      providerCode: 'invalid_run_option',
      details: { option: 'model' },
    });
    expect(codex.server.requests).toHaveLength(0);
  });
});
