// @vitest-environment happy-dom
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * A turn's plan, reasoning summary, structured output and usage drawn from envelopes in a DOM
 * (happy-dom): the plan's steps change state in place, the reasoning is collapsed, the usage
 * is the turn's, on the line that closes it.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DrawnTimeline } from './timeline-page.js';
import { codex } from './timeline-log.js';

let t: DrawnTimeline;

beforeEach(() => {
  t = new DrawnTimeline();
});

describe('a plan', () => {
  it('is a checklist whose steps change state in place', () => {
    const steps = (second: string) => [
      { step: 'Read the code', status: 'completed' },
      { step: 'Write the fix', status: second },
    ];
    t.feed(codex('plan', { explanation: 'Two steps', steps: steps('in_progress') }));
    const entry = t.one('.entry.plan');
    const row = entry.querySelectorAll('li.plan-step')[1] as HTMLElement;
    const box = row.querySelector('input') as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(row.dataset.status).toBe('in_progress');
    t.feed(codex('plan', { steps: steps('completed') }));
    expect(t.one('.entry.plan')).toBe(entry);
    expect(entry.querySelectorAll('li.plan-step')[1]).toBe(row);
    expect(box.checked).toBe(true);
    expect(row.textContent).toBe('Write the fix (done)');
    expect(entry.querySelector('.plan-head')?.textContent).toBe('plan · 2 of 2 done');
  });
});

describe('reasoning, structured output, usage', () => {
  it('a reasoning summary is one collapsed block, its parts in order', () => {
    t.feed(
      codex('reasoning_summary', {
        itemId: 'rs_1',
        summaryIndex: 0,
        delta: '**Thinking** about it',
      }),
      codex('reasoning_summary', { itemId: 'rs_1', summaryIndex: 1, delta: 'Second part' }),
    );
    const entry = t.one('.entry.reasoning');
    expect(entry.querySelector('details')?.open).toBe(false);
    expect(entry.querySelector('summary')?.textContent).toBe('reasoning summary');
    expect(entry.querySelector('strong')?.textContent).toBe('Thinking');
    expect(entry.querySelector('.reasoning-text')?.textContent).toBe(
      'Thinking about itSecond part',
    );
  });

  it('structured output is pretty-printed JSON', () => {
    const value = { ok: true, files: ['a.txt'] };
    t.feed(codex('structured_output', { value }));
    expect(t.one('.entry.structured pre').textContent).toBe(JSON.stringify(value, null, 2));
  });

  it("usage is per turn, on the line that closes it: each run's latest report, summed over the turn's runs", () => {
    const started = {
      type: 'run.started',
      turnId: 'trn_1',
      profile: 'main',
      providerId: 'codex',
    } as const;
    t.add({ ...started, attempt: 1 });
    t.add({ type: 'run.usage', usage: { inputTokens: 5, outputTokens: 1 } });
    t.add({ type: 'run.usage', usage: { inputTokens: 100, outputTokens: 7, totalTokens: 107 } });
    // a retry of the same turn, and another turn's run that is not counted
    t.add({ ...started, attempt: 2 }, 'run_retry');
    t.add(
      { type: 'run.usage', usage: { inputTokens: 10, outputTokens: 3, totalTokens: 13 } },
      'run_retry',
    );
    t.add({ ...started, turnId: 'trn_other', attempt: 1 }, 'run_other');
    t.add({ type: 'run.usage', usage: { inputTokens: 999 } }, 'run_other');
    expect(t.root.querySelectorAll('.usage')).toHaveLength(0);
    t.feed({ type: 'turn.settled', turnId: 'trn_1', state: 'completed' });
    expect(t.one('.entry.settled').textContent).toBe(
      'turn completed · tokens: 110 in · 10 out · 120 total',
    );
  });
});
