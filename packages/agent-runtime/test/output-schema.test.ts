import { isRuntimeError } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { manualRuntime, scriptedRuntime, until } from './support.js';

const SCHEMA = { type: 'object', required: ['answer'] };

describe('submitTurn outputSchema', () => {
  it('reaches the provider run request when the provider declares run.structuredOutput', async () => {
    const { manual, session } = await manualRuntime();
    const turn = await session.submitTurn({ input: 'x', outputSchema: SCHEMA });
    await until(() => manual.sessions[0]?.runs.length === 1, 'run');
    expect(manual.sessions[0]!.runs[0]!.request.outputSchema).toEqual(SCHEMA);
    manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    await turn.done;
    const plain = await session.submitTurn({ input: 'y' });
    await until(() => manual.sessions[0]?.runs.length === 2, 'second run');
    expect('outputSchema' in manual.sessions[0]!.runs[1]!.request).toBe(false);
    manual.sessions[0]!.runs[1]!.complete({ outcome: 'succeeded' });
    await plain.done;
  });

  it('is refused before the turn exists when undeclared, and when it is not a JSON object', async () => {
    const { session, scripted } = await scriptedRuntime();
    const refused = await session
      .submitTurn({ input: 'x', outputSchema: SCHEMA })
      .catch((e: unknown) => e);
    expect(isRuntimeError(refused) && refused.reason).toBe('structured_output_unsupported');
    expect(scripted.controller.startedRuns).toEqual([]);
    const bad = await session
      .submitTurn({ input: 'x', outputSchema: [] as never })
      .catch((e: unknown) => e);
    expect(isRuntimeError(bad) && bad.reason).toBe('output_schema_invalid');
    expect(session.activeRunId).toBeUndefined();
  });
});
