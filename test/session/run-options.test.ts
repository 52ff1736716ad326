/**
 * The thread's model, effort and summary as runs change them (ADR-0041): what each `turn/start`
 * carries, on hand-made defaults; the real binary's side is test/e2e/run-options.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '@relvo-labs/agent-provider';
import { summaryOf, TurnSettings } from '../../src/session/run-options.js';

function settings(
  defaults: { model?: string; effort?: string },
  summaries: (() => Promise<RunSummary>)[] = [],
): { s: TurnSettings; reads: () => number } {
  let reads = 0;
  const s = new TurnSettings(defaults, () => {
    reads += 1;
    const next = summaries.shift();
    return next === undefined ? Promise.resolve('auto') : next();
  });
  return { s, reads: () => reads };
}

async function turn(s: TurnSettings, options: Parameters<TurnSettings['paramsFor']>[0]) {
  const params = await s.paramsFor(options);
  s.accepted(params);
  return params;
}

describe('TurnSettings', () => {
  it('sends nothing until a run changes something, then the defaults once', async () => {
    const { s, reads } = settings({ model: 'm0', effort: 'low' });
    expect(await turn(s, {})).toEqual({});
    expect(await turn(s, { model: 'm1', effort: 'high' })).toEqual({ model: 'm1', effort: 'high' });
    expect(await turn(s, {})).toEqual({ model: 'm0', effort: 'low' });
    expect(await turn(s, {})).toEqual({});
    expect(reads()).toBe(0);
  });

  it('a run that sets the default itself leaves nothing to undo', async () => {
    const { s } = settings({ model: 'm0', effort: 'low' });
    await turn(s, { model: 'm1' });
    expect(await turn(s, { model: 'm0' })).toEqual({ model: 'm0' });
    expect(await turn(s, {})).toEqual({});
  });

  it('the summary default is read once, when first needed; a failed read is not kept', async () => {
    const { s, reads } = settings({ model: 'm0' }, [
      () => Promise.reject(new Error('down')),
      () => Promise.resolve('concise'),
    ]);
    await turn(s, { summary: 'detailed' });
    expect(reads()).toBe(0);
    await expect(s.paramsFor({})).rejects.toThrow('down');
    expect(await turn(s, {})).toEqual({ summary: 'concise' });
    await turn(s, { summary: 'none' });
    expect(await turn(s, {})).toEqual({ summary: 'concise' });
    expect(reads()).toBe(2);
  });

  it('refuses a model or effort whose default is unknown, naming it', () => {
    const { s } = settings({ model: 'm0' });
    expect(s.refusal({ effort: 'high' })?.agentError).toMatchObject({
      code: 'invalid_request',
      providerCode: 'run_option_not_restorable',
      details: { option: 'effort' },
    });
    expect(s.refusal({ model: 'm1', summary: 'auto' })).toBeUndefined();
    expect(settings({}).s.refusal({ model: 'm1' })?.agentError.details).toEqual({
      option: 'model',
    });
  });

  it('a snapshot keeps what is held; a session built from it sends the defaults back', async () => {
    const { s } = settings({ model: 'm0', effort: 'low' });
    await turn(s, { model: 'm1', summary: 'none' });
    const snap = s.snapshot();
    expect(snap).toEqual({
      defaults: { model: 'm0', effort: 'low' },
      changed: { model: 'm1', summary: 'none' },
    });
    const resumed = new TurnSettings(snap.defaults, () => Promise.resolve('auto'), snap.changed);
    expect(await turn(resumed, {})).toEqual({ model: 'm0', summary: 'auto' });
    expect(resumed.snapshot().changed).toEqual({});
  });

  it('a configured summary is the default; anything else is auto', () => {
    expect(summaryOf('detailed')).toBe('detailed');
    expect(summaryOf(null)).toBe('auto');
    expect(summaryOf('brief')).toBe('auto');
  });
});
