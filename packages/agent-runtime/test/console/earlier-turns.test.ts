// @vitest-environment happy-dom
/// <reference lib="dom" />
/**
 * The console's earlier turns (happy-dom): "Earlier turns" asks the server for the session's
 * thread a page at a time, draws each page above the ones already drawn, oldest at the top, with
 * the timeline's renderer (the model's text, as neutralised text), and stops at the oldest page;
 * a refusal is one line; a page that arrives after another session was chosen is dropped.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EARLIER_PAGE, EarlierTurns } from '../../src/console/browser/earlier.js';

function turn(text: string, reply: string, outcome = 'succeeded') {
  return {
    input: { parts: [{ type: 'text', text }] },
    events: [{ payload: { type: 'run.message_delta', text: reply } }],
    outcome,
  };
}

/** A fetch stub answering each request with the next reply; the URLs asked are kept. */
function serve(...replies: [number, unknown][]): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', (url: string) => {
    asked.push(url);
    const [status, body] = replies.shift() ?? [500, {}];
    return Promise.resolve(new Response(JSON.stringify(body), { status }));
  });
  return asked;
}

function mount(): { box: HTMLElement; earlier: EarlierTurns } {
  document.body.replaceChildren();
  const box = document.createElement('div');
  document.body.append(box);
  return { box, earlier: new EarlierTurns(box) };
}

const texts = (box: HTMLElement, selector: string) =>
  [...box.querySelectorAll(selector)].map((n) => n.textContent);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('earlier turns in the console', () => {
  it('pages back through the thread, oldest at the top, and stops at its first turn', async () => {
    const asked = serve(
      [200, { turns: [turn('three', 'C'), turn('two', 'B')], nextCursor: 'c1' }],
      [200, { turns: [turn('one', 'A\u202e <b>x</b>', 'interrupted')] }],
    );
    const { box, earlier } = mount();
    expect(box.hidden).toBe(true);
    earlier.follow('ses_a');
    expect(box.hidden).toBe(false);
    await earlier.load();
    expect(texts(box, '.entry.you .text')).toEqual(['two', 'three']);
    await earlier.load();
    expect(asked).toEqual([
      `/api/sessions/ses_a/history?limit=${String(EARLIER_PAGE)}`,
      `/api/sessions/ses_a/history?limit=${String(EARLIER_PAGE)}&cursor=c1`,
    ]);
    expect(texts(box, '.entry.you .text')).toEqual(['one', 'two', 'three']);
    expect(texts(box, '.entry.settled')).toEqual([
      'turn interrupted',
      'turn succeeded',
      'turn succeeded',
    ]);
    // the model's text is drawn as text, hidden characters made visible, markup never obeyed
    const first = box.querySelector('.earlier-turn .message');
    expect(first?.textContent).toContain('A<U+202E> <b>x</b>');
    expect(box.querySelector('.earlier-turn b')).toBeNull();
    expect(box.querySelector<HTMLButtonElement>('.earlier-more')?.hidden).toBe(true);
    expect(box.querySelector('.earlier-note')?.textContent).toContain('3 in all');
  });

  it('a refusal is one line; choosing another session drops a page still on its way', async () => {
    serve([409, { refused: 'session_elsewhere' }]);
    const { box, earlier } = mount();
    earlier.follow('ses_a');
    await earlier.load();
    expect(box.querySelector('.earlier-note')?.textContent).toBe(
      'refused: another process runs this session: its earlier turns are read there (session_elsewhere)',
    );
    expect(box.querySelectorAll('.earlier-turn')).toHaveLength(0);

    serve([200, { turns: [turn('late', 'L')] }]);
    earlier.follow('ses_a');
    const loading = earlier.load();
    earlier.follow('ses_b');
    await loading;
    expect(box.querySelectorAll('.earlier-turn')).toHaveLength(0);
  });
});
