/**
 * A session's earlier turns as its provider keeps the thread (`GET /api/sessions/:id/history`):
 * what a resumed thread did before this log held it. Asked for a page at a time ("Earlier
 * turns"), drawn above the timeline, oldest at the top, by the timeline's own renderer; a refusal
 * is one line. The thread's newer turns are in the timeline as well.
 */
import { api } from './api.js';
import { el, isRecord, str } from './dom.js';
import { refusalText } from './labels.js';
import { inputText, TimelineView } from './render.js';

/** Turns per page: a long thread is read a page at a time, never whole. */
export const EARLIER_PAGE = 10;

function youEntry(input: unknown): HTMLElement {
  const node = el('div', 'entry you');
  node.append(el('span', 'label', 'you (earlier)'), el('span', 'text', inputText(input)));
  return node;
}

/** One page (newest first from the server), drawn oldest first. */
function drawPage(sessionId: string, turns: readonly Record<string, unknown>[], from: number) {
  const page = el('div', 'earlier-page');
  let sequence = 0;
  [...turns].reverse().forEach((turn, i) => {
    const block = el('div', 'earlier-turn');
    page.append(block);
    if (turn['input'] !== undefined) block.append(youEntry(turn['input']));
    const view = new TimelineView(block, () => undefined);
    const runId = `earlier-${String(from + i)}`;
    const events = Array.isArray(turn['events']) ? turn['events'].filter(isRecord) : [];
    for (const event of events) {
      if (!isRecord(event['payload'])) continue;
      view.render({ sequence: (sequence += 1), sessionId, runId, payload: event['payload'] });
    }
    view.flush();
    block.append(el('div', 'entry settled', `turn ${str(turn['outcome'], 'unknown')}`));
  });
  return page;
}

export class EarlierTurns {
  readonly #box: HTMLElement;
  readonly #pages = el('div', 'earlier-pages');
  readonly #more = el('button', 'earlier-more', 'Earlier turns');
  readonly #note = el('div', 'muted earlier-note');
  #sessionId = '';
  #cursor: string | undefined;
  #drawn = 0;
  #loading = false;

  constructor(box: HTMLElement) {
    this.#box = box;
    this.#more.type = 'button';
    this.#more.addEventListener('click', () => void this.load());
    box.append(this.#more, this.#note, this.#pages);
    this.follow('');
  }

  follow(sessionId: string): void {
    this.#sessionId = sessionId;
    this.#cursor = undefined;
    this.#drawn = 0;
    this.#pages.replaceChildren();
    this.#note.textContent = '';
    this.#more.hidden = false;
    this.#box.hidden = sessionId === '';
  }

  /** The next page back; one at a time. */
  async load(): Promise<void> {
    if (this.#loading || this.#sessionId === '') return;
    this.#loading = true;
    const sessionId = this.#sessionId;
    const query = new URLSearchParams({ limit: String(EARLIER_PAGE) });
    if (this.#cursor !== undefined) query.set('cursor', this.#cursor);
    try {
      const res = await api(
        'GET',
        `/api/sessions/${encodeURIComponent(sessionId)}/history?${query}`,
      );
      // another session was chosen meanwhile: this page is not its
      if (sessionId !== this.#sessionId) return;
      if (!res.ok) {
        this.#note.textContent = refusalText(str(res.data['refused'], String(res.status)));
        return;
      }
      const turns = Array.isArray(res.data['turns']) ? res.data['turns'].filter(isRecord) : [];
      this.#pages.prepend(drawPage(sessionId, turns, this.#drawn));
      this.#drawn += turns.length;
      const next = res.data['nextCursor'];
      this.#cursor = typeof next === 'string' ? next : undefined;
      if (this.#cursor === undefined) {
        this.#more.hidden = true;
        this.#note.textContent = `the thread's first turn is the oldest shown (${String(this.#drawn)} in all)`;
      }
    } finally {
      this.#loading = false;
    }
  }
}
