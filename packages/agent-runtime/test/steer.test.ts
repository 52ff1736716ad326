import { isRuntimeError } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { scriptedRuntime } from './support.js';

const ASK = {
  long: [{ type: 'ask' as const, ref: 'q', request: { kind: 'question' as const, prompt: 'p' } }],
};

describe('session.steer', () => {
  it('adds input to the active run through the provider run; refused once no run is active', async () => {
    const { scripted, session } = await scriptedRuntime({ scripted: { scripts: ASK } });
    const turn = await session.submitTurn({ input: 'long' });
    scripted.controller.drain();
    await session.steer('and also this');
    await session.steer({ parts: [{ type: 'text', text: 'more' }] });
    expect(scripted.controller.steeredRuns).toEqual([
      { runRef: turn.runId, text: 'and also this' },
      { runRef: turn.runId, text: 'more' },
    ]);
    await session.interrupt();
    await turn.done;
    const late = await session.steer('late').catch((e: unknown) => e);
    expect(isRuntimeError(late) && late.reason).toBe('no_active_run');
    const bad = await session.steer({ parts: [] }).catch((e: unknown) => e);
    expect(isRuntimeError(bad) && bad.code).toBe('invalid_request');
  });

  it('is refused as unsupported when the provider does not declare run.steer', async () => {
    const { scripted, session } = await scriptedRuntime({
      scripted: { scripts: ASK, supportsSteer: false },
    });
    const turn = await session.submitTurn({ input: 'long' });
    scripted.controller.drain();
    const refused = await session.steer('x').catch((e: unknown) => e);
    expect(isRuntimeError(refused) && refused.reason).toBe('steer_unsupported');
    expect(isRuntimeError(refused) && refused.code).toBe('capability_unsupported');
    expect(scripted.controller.steeredRuns).toEqual([]);
    await session.interrupt();
    await turn.done;
  });
});
