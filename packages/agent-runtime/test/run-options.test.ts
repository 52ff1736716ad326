import { createAgentRuntime, isRuntimeError, parseRuntimeConfig } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { createManualProvider } from './manual-provider.js';
import { manualRuntime, onCleanup, scriptedRuntime, tempDir, until } from './support.js';

const SCHEMA = { type: 'object', required: ['answer'] };

async function profileRuntime(run: Record<string, unknown>) {
  const manual = createManualProvider();
  const runtime = await createAgentRuntime({
    providers: { manual: () => manual.provider },
    config: { defaultProfile: 'm', profiles: { m: { provider: 'manual', run } } },
    closeGraceMs: 2_000,
  });
  onCleanup(() => runtime.shutdown().catch(() => undefined));
  return { manual, session: await runtime.openSession({ workspace: tempDir() }) };
}

describe('submitTurn model, effort and summary (ADR-0041)', () => {
  it('reach that run only; a later turn without them sends none', async () => {
    const { manual, session } = await manualRuntime();
    const own = await session.submitTurn({
      input: 'x',
      model: 'gpt-x',
      effort: 'high',
      summary: 'detailed',
    });
    await until(() => manual.sessions[0]?.runs.length === 1, 'run');
    const request = manual.sessions[0]!.runs[0]!.request;
    expect([request.model, request.effort, request.summary]).toEqual(['gpt-x', 'high', 'detailed']);
    manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    await own.done;
    const plain = await session.submitTurn({ input: 'y' });
    await until(() => manual.sessions[0]?.runs.length === 2, 'second run');
    const next = manual.sessions[0]!.runs[1]!.request;
    expect(['model', 'effort', 'summary', 'outputSchema'].filter((k) => k in next)).toEqual([]);
    manual.sessions[0]!.runs[1]!.complete({ outcome: 'succeeded' });
    await plain.done;
  });

  it('the profile run defaults apply to every turn; a turn’s own value wins', async () => {
    const { manual, session } = await profileRuntime({
      model: 'gpt-p',
      summary: 'concise',
      outputSchema: SCHEMA,
    });
    const turn = await session.submitTurn({ input: 'x', model: 'gpt-t' });
    await until(() => manual.sessions[0]?.runs.length === 1, 'run');
    const request = manual.sessions[0]!.runs[0]!.request;
    expect(request.model).toBe('gpt-t');
    expect(request.summary).toBe('concise');
    expect(request.outputSchema).toEqual(SCHEMA);
    expect('effort' in request).toBe(false);
    manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    await turn.done;
  });

  it('refused before the turn exists: an unknown key named, a bad value by key, undeclared', async () => {
    const { session, scripted } = await scriptedRuntime();
    const reasonOf = (e: unknown) => (isRuntimeError(e) ? [e.reason, e.error.details?.option] : e);
    const unknown = await session
      .submitTurn({ input: 'x', temperature: 0.2 } as never)
      .catch((e: unknown) => e);
    expect(reasonOf(unknown)).toEqual(['turn_option_unknown', 'temperature']);
    const bad = await session
      .submitTurn({ input: 'x', summary: 'brief' as never })
      .catch((e: unknown) => e);
    expect(reasonOf(bad)).toEqual(['turn_option_invalid', 'summary']);
    expect(JSON.stringify(bad)).not.toContain('brief');
    const undeclared = await session
      .submitTurn({ input: 'x', effort: 'high' })
      .catch((e: unknown) => e);
    expect(reasonOf(undeclared)).toEqual(['run_option_unsupported', 'effort']);
    expect(scripted.controller.startedRuns).toEqual([]);
    expect(session.activeRunId).toBeUndefined();
  });

  it('profile run keys are parsed with the config: an unknown key is named with its path', () => {
    const refused = (() => {
      try {
        parseRuntimeConfig({
          defaultProfile: 'm',
          profiles: { m: { provider: 'manual', run: { model: 'x', temprature: 1 } } },
        });
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(isRuntimeError(refused) && refused.reason).toBe('config_invalid');
    expect(isRuntimeError(refused) && refused.error.details?.path).toBe(
      'profiles.m.run.temprature',
    );
    expect(() =>
      parseRuntimeConfig({
        defaultProfile: 'm',
        profiles: { m: { provider: 'manual', run: { effort: 'HIGH' } } },
      }),
    ).toThrow(/profiles\.m\.run\.effort/);
  });
});
