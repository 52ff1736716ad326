// @vitest-environment happy-dom
/// <reference lib="dom" />
/**
 * An undo in the console's timeline (happy-dom): the request and its outcome each a visible line,
 * the outcome saying what happened to the files.
 */
import { describe, expect, it } from 'vitest';
import { DrawnTimeline } from './timeline-page.js';

describe('an undo', () => {
  it('draws the request and what was taken back, with the files kept', () => {
    const t = new DrawnTimeline();
    t.feed(
      { type: 'session.revert_requested', turns: 2, profile: 'codex' },
      { type: 'session.reverted', turns: 2, profile: 'codex', files: 'kept' },
    );
    expect(t.one('.entry.quiet').textContent).toBe('undo requested: the last 2 turns');
    expect(t.one('.entry.settled').textContent).toBe(
      'undone: the last 2 turns taken back (files kept)',
    );
    expect(t.root.querySelectorAll('.entry.generic')).toHaveLength(0);
  });
});
