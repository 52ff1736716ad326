// @vitest-environment happy-dom
/// <reference lib="dom" />
/**
 * Injected context in the console's timeline (happy-dom): one entry naming the profile, each item
 * with its role and its text as text (never markup, hidden characters made visible).
 */
import { describe, expect, it } from 'vitest';
import { DrawnTimeline } from './timeline-page.js';

describe('injected context', () => {
  it('draws each item with its role, as neutralised text', () => {
    const t = new DrawnTimeline();
    t.feed({
      type: 'context.injected',
      profile: 'codex',
      items: [
        { type: 'text', role: 'developer', text: 'HOST NOTE: gold plan' },
        { type: 'text', role: 'user', text: '<img src=x onerror=alert(1)> \u202eflip' },
      ],
    });
    const entry = t.one('.entry.context');
    expect(entry.querySelector('.label')?.textContent).toBe('context added for codex');
    const lines = [...entry.querySelectorAll('div.text')].map((n) => n.textContent);
    expect(lines).toEqual([
      'developer: HOST NOTE: gold plan',
      'user: <img src=x onerror=alert(1)> <U+202E>flip',
    ]);
    expect(entry.querySelector('img')).toBeNull();
    expect(t.root.querySelectorAll('.entry.generic')).toHaveLength(0);
  });
});
