// @vitest-environment happy-dom
/// <reference lib="dom" />
/**
 * The console page's warm-pool panel drawn in a DOM (happy-dom): a row per prewarmed profile
 * with warm / target, starting, failed and the last failure's code and reason; its health as a
 * class; hostile or malformed data neutralised or left out; a line when nothing prewarms.
 */
import { describe, expect, it } from 'vitest';
import { drawPool, poolHealth, poolRows } from '../../src/console/browser/pool.js';

function draw(data: unknown): HTMLElement {
  const into = document.createElement('div');
  drawPool(into, data);
  return into;
}

const cells = (row: Element): string[] =>
  [...row.querySelectorAll('td')].map((td) => td.textContent);

describe('the warm pool panel', () => {
  it('draws one row per profile with its counts, failure and health', () => {
    const into = draw({
      profiles: [
        { profile: 'fast', target: 2, warm: 2, starting: 0, failed: 0, lastError: null },
        {
          profile: 'broken',
          target: 2,
          warm: 0,
          starting: 0,
          failed: 3,
          lastError: { code: 'provider_unavailable', reason: 'provider_rejected', at: 'x' },
        },
        { profile: 'coming', target: 3, warm: 1, starting: 2, failed: 0, lastError: null },
      ],
    });
    const rows = [...into.querySelectorAll('tbody tr')];
    expect(rows.map((r) => (r as HTMLElement).dataset.profile)).toEqual([
      'fast',
      'broken',
      'coming',
    ]);
    expect(rows.map((r) => r.className)).toEqual([
      'pool-row pool-warm',
      'pool-row pool-short',
      'pool-row pool-filling',
    ]);
    expect(cells(rows[0]!)).toEqual(['fast', '2 / 2', '0', '0', '–']);
    const broken = cells(rows[1]!);
    expect(broken.slice(0, 4)).toEqual(['broken', '0 / 2', '0', '3']);
    expect(broken[4]).toMatch(/^provider_unavailable · provider_rejected/);
    expect([...into.querySelectorAll('th')].map((th) => th.textContent)).toEqual([
      'profile',
      'warm / target',
      'starting',
      'failed',
      'last failure',
    ]);
  });

  it('neutralises what it writes and leaves out what is not a profile entry', () => {
    const into = draw({
      profiles: [
        'not an entry',
        { profile: 'evil\u202e<img src=x>', target: 1, warm: -4, starting: 'many', failed: 1.5 },
      ],
    });
    const rows = into.querySelectorAll('tbody tr');
    expect(rows).toHaveLength(1);
    expect(into.querySelector('img')).toBeNull();
    const [name, warm, starting, failed, last] = cells(rows[0]!);
    expect(name).not.toContain('\u202e');
    expect(name).toContain('<img src=x>');
    expect([warm, starting, failed, last]).toEqual(['0 / 1', '0', '0', '–']);
  });

  it('says so when no profile prewarms, or the data is not a pool', () => {
    for (const data of [{ profiles: [] }, null, { profiles: 'x' }, []]) {
      const into = draw(data);
      expect(into.querySelector('table')).toBeNull();
      expect(into.textContent).toBe('No profile prewarms in this process.');
    }
    expect(poolRows({ profiles: [{ profile: 'p', target: 2, warm: 2 }] })).toHaveLength(1);
    expect(
      poolHealth({ profile: 'p', target: 2, warm: 1, starting: 0, failed: 0, lastError: null }),
    ).toBe('short');
  });
});
