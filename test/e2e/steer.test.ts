/**
 * Steering on the real binary (ADR-0041): `ProviderRun.steer` sends `turn/steer` with the run's
 * own turn as the expected one. While a response streams codex cuts it and asks the model again
 * with the steer text appended; the run stays one run. Once the run ended a steer is refused
 * definitely, before and after codex would have been asked.
 */
import { describe, expect, it } from 'vitest';
import { isProviderRejection } from '@relvo-labs/agent-provider';
import { requestInputItems, textStep, type RecordedRequest } from '../../src/testing/index.js';
import { textInput } from '../support/provider-harness.js';
import { openRealCodex, recordingSink, waitForEvent, slowTextStep } from '../support/real-codex.js';

/** The user texts of a model request, in order. */
function userTexts(request: RecordedRequest): string[] {
  return requestInputItems(request)
    .filter((i) => i.role === 'user' && Array.isArray(i.content))
    .map((i) =>
      (i.content as { text?: unknown }[])
        .map((c) => (typeof c.text === 'string' ? c.text : ''))
        .join(''),
    );
}

describe('steering a run on the real binary', () => {
  it('a steer during a streaming response reaches the next model request of the same run', async () => {
    const codex = await openRealCodex();
    codex.server.enqueue(slowTextStep(40, 100, 'w'), textStep('steered answer'));
    const sink = recordingSink();
    const run = await codex.session.startRun({ input: textInput('count'), sink, runRef: 's1' });
    await waitForEvent(sink, (e) => e.payload.type === 'run.message_delta', 'a first delta');
    await run.steer?.(textInput('STEER: also say nine'));
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    expect(codex.server.requests).toHaveLength(2);
    const second = codex.server.requests[1];
    if (second === undefined) throw new Error('no second request');
    expect(userTexts(second).slice(-2)).toEqual(['count', 'STEER: also say nine']);
    const text = sink
      .ofType('run.message_delta')
      .map((e) => e.text)
      .join('');
    expect(text).toContain('steered answer');

    const late = await run.steer?.(textInput('too late')).catch((e: unknown) => e);
    expect(isProviderRejection(late) && late.agentError.code).toBe('illegal_state_transition');
    // nothing more was asked of the model
    expect(codex.server.requests).toHaveLength(2);
  });
});
