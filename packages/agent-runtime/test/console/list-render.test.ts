// @vitest-environment happy-dom
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The console page's sessions table and inbox drawn in a DOM (happy-dom): rows named by their
 * titles (neutralised again on writing), live states in words, the state filter with its counts,
 * relative times; inbox cards that are one Tab stop each and answer by keys — `a`, `d`, Ctrl+Enter
 * press the card's own buttons, `j`/`k` move between cards, and a key typed into an answer's
 * input does nothing but type.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { drawInbox, inboxKeys, type Pending } from '../../src/console/browser/inbox.js';
import { liveText } from '../../src/console/browser/labels.js';
import { relativeTime } from '../../src/console/browser/relative.js';
import {
  compactCount,
  drawSessions,
  FILTERS,
  matches,
  type Row,
} from '../../src/console/browser/sessions-table.js';

const NOW = Date.parse('2026-12-05T12:00:00.000Z');
const ago = (ms: number): string => new Date(NOW - ms).toISOString();

function row(id: string, liveState: string, extra: Partial<Row> = {}): Row {
  return {
    sessionId: id,
    owner: 'elsewhere',
    liveState,
    profiles: ['m'],
    defaultProfile: 'm',
    providers: ['manual'],
    turns: 1,
    usage: { inputTokens: 1200, outputTokens: 340, totalTokens: 1540 },
    openedAt: ago(3_600_000),
    updatedAt: ago(120_000),
    ...extra,
  };
}

const approval = (id: string, modes: string[] = ['once', 'session']): Pending => ({
  sessionId: 'ses_a',
  owner: 'elsewhere',
  interactionId: id,
  request: {
    kind: 'approval',
    subject: { category: 'command', summary: 'rm -rf build' },
    allowedModes: modes,
    riskHint: 'high',
  },
});

const question = (id: string): Pending => ({
  sessionId: 'ses_a',
  owner: 'this_runtime',
  interactionId: id,
  request: { kind: 'question', prompt: 'Which branch?' },
});

let posted: { url: string; body: unknown }[];

beforeEach(() => {
  document.body.innerHTML = `<span id="status"></span>
<h2 id="inbox-heading" tabindex="-1">Inbox</h2><div id="inbox"></div>
<select id="state-filter"></select><span id="sessions-shown"></span>
<table><tbody id="sessions"></tbody></table><input id="prompt">`;
  const filter = document.getElementById('state-filter') as HTMLSelectElement;
  for (const [value, label] of FILTERS) {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = label;
    filter.append(option);
  }
  posted = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      posted.push({ url, body: JSON.parse(init.body as string) as unknown });
      return Promise.resolve(new Response(JSON.stringify({ answered: 'x' }), { status: 200 }));
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the sessions table', () => {
  const rows = [
    row('ses_1', 'waiting', { title: 'Fix the build <U+202E>x', waitingFor: 'approval' }),
    row('ses_2', 'running', { title: 'Write the notes' }),
    row('ses_3', 'closed'),
    row('ses_4', 'stalled', { title: 'Left open', waitingFor: 'answer' }),
  ];

  it('names each row by its title, says its state in words, keeps the id for the pointer', () => {
    drawSessions(rows, 'all', 'ses_2', () => undefined);
    const trs = [...document.querySelectorAll<HTMLElement>('tr.session-row')];
    expect(trs.map((tr) => tr.querySelector('.row-title')?.textContent)).toEqual([
      'Fix the build <U+202E>x',
      'Write the notes',
      'untitled session',
      'Left open',
    ]);
    expect(trs.map((tr) => tr.querySelector('.badge')?.textContent)).toEqual([
      'waiting for approval',
      'running',
      'closed',
      'stalled, question open, no owner',
    ]);
    expect(trs[1]?.getAttribute('aria-current')).toBe('true');
    expect(trs[0]?.querySelector('.sid')?.getAttribute('title')).toBe('ses_1');
    expect(trs[0]?.querySelector('.num')?.textContent).toBe('1.5k');
    expect(trs[0]?.querySelector('.num')?.getAttribute('title')).toBe('1200 in / 340 out');
    expect(trs[0]?.querySelector('.owner')?.textContent).toBe('another process');
  });

  it('filters by state and counts what each choice shows', () => {
    drawSessions(rows, 'attention', '', () => undefined);
    const shown = [...document.querySelectorAll<HTMLElement>('tr.session-row')];
    expect(shown.map((tr) => tr.dataset.session)).toEqual(['ses_1', 'ses_4']);
    expect(document.getElementById('sessions-shown')?.textContent).toBe('2 of 4 shown');
    const options = [...(document.getElementById('state-filter') as HTMLSelectElement).options];
    expect(options.map((o) => o.textContent)).toEqual([
      'all sessions (4)',
      'needing attention (2)',
      'open (3)',
      'running (1)',
      'waiting (1)',
      'idle (0)',
      'stalled (1)',
      'closed or failed (1)',
    ]);
    drawSessions(rows, 'idle', '', () => undefined);
    expect(document.querySelector('#sessions tr')?.textContent).toBe(
      'No session matches the filter.',
    );
    expect(matches('ended', 'failed')).toBe(true);
    expect(matches('open', 'closed')).toBe(false);
  });

  it('selects a session from its title button or its row', () => {
    const chosen: string[] = [];
    drawSessions(rows, 'all', '', (id) => chosen.push(id));
    document.querySelector<HTMLButtonElement>('tr[data-session="ses_2"] .row-title')?.click();
    document.querySelector<HTMLElement>('tr[data-session="ses_3"] .state-cell')?.click();
    expect(chosen).toEqual(['ses_2', 'ses_3']);
  });
});

describe('words and numbers', () => {
  it('says times relatively, and "–" for what is not a time', () => {
    expect(relativeTime(ago(3_000), NOW)).toBe('just now');
    expect(relativeTime(ago(5 * 60_000), NOW)).toBe('5 min. ago');
    expect(relativeTime(ago(3 * 3_600_000), NOW)).toBe('3 hr. ago');
    expect(relativeTime(ago(-2 * 86_400_000), NOW)).toBe('in 2 days');
    expect(relativeTime('not a time', NOW)).toBe('–');
  });

  it('counts tokens compactly and names what a session waits for', () => {
    expect([999, 1540, 23_400, 2_500_000].map(compactCount)).toEqual([
      '999',
      '1.5k',
      '23k',
      '2.5M',
    ]);
    expect(liveText('waiting', 'approval')).toBe('waiting for approval');
    expect(liveText('waiting', 'answer')).toBe('waiting for an answer');
    expect(liveText('waiting')).toBe('waiting for an answer');
  });
});

describe('the inbox by keys', () => {
  const key = (target: Element, k: string, init: KeyboardEventInit = {}): void => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, ...init }));
  };
  const cards = (): HTMLElement[] => [
    ...document.querySelectorAll<HTMLElement>('#inbox > [data-interaction]'),
  ];

  it('each card is one Tab stop, labelled with its subject and the keys it takes', () => {
    drawInbox([approval('int_1'), question('int_2')], () => undefined);
    const [a, q] = cards();
    expect(a?.tabIndex).toBe(0);
    expect(a?.getAttribute('role')).toBe('group');
    expect(a?.getAttribute('aria-label')).toBe('approval, command: rm -rf build');
    expect(a?.getAttribute('aria-keyshortcuts')).toBe('a s d j k');
    expect(q?.getAttribute('aria-keyshortcuts')).toBe('Control+Enter j k');
  });

  it('`a`, `s` and `d` press the focused card’s buttons; `j`/`k` move between cards', async () => {
    inboxKeys();
    drawInbox([approval('int_1'), approval('int_2'), approval('int_3', ['once'])], () => undefined);
    const [one, two, three] = cards() as [HTMLElement, HTMLElement, HTMLElement];
    one.focus();
    key(one, 'j');
    expect(document.activeElement).toBe(two);
    key(two, 'ArrowDown');
    expect(document.activeElement).toBe(three);
    key(three, 'k');
    expect(document.activeElement).toBe(two);
    key(one, 'a');
    key(two, 's');
    key(three, 'd');
    // no "for the session" button on the third card: `s` presses nothing
    key(three, 's');
    await vi.waitFor(() => {
      expect(posted).toHaveLength(3);
    });
    expect(posted).toEqual([
      {
        url: '/api/sessions/ses_a/interactions/int_1',
        body: { kind: 'approval', decision: 'approved', mode: 'once' },
      },
      {
        url: '/api/sessions/ses_a/interactions/int_2',
        body: { kind: 'approval', decision: 'approved', mode: 'session' },
      },
      {
        url: '/api/sessions/ses_a/interactions/int_3',
        body: { kind: 'approval', decision: 'denied' },
      },
    ]);
  });

  it('a key typed into an answer only types; Ctrl+Enter sends it; `i` goes to the first card', async () => {
    inboxKeys();
    drawInbox([question('int_q')], () => undefined);
    const [card] = cards() as [HTMLElement];
    const input = card.querySelector('input, textarea') as HTMLInputElement;
    input.value = 'main';
    key(input, 'a');
    key(input, 'd');
    expect(posted).toEqual([]);
    key(input, 'Enter', { ctrlKey: true });
    await vi.waitFor(() => {
      expect(posted).toHaveLength(1);
    });
    expect(posted[0]?.url).toBe('/api/sessions/ses_a/interactions/int_q');
    (document.getElementById('prompt') as HTMLInputElement).focus();
    key(document.getElementById('prompt') as HTMLElement, 'i');
    expect(document.activeElement).not.toBe(card);
    (document.activeElement as HTMLElement).blur();
    key(document.body, 'i');
    expect(document.activeElement).toBe(card);
  });

  it('a card answered elsewhere leaves the focus on the card that took its place', () => {
    drawInbox([approval('int_1'), approval('int_2')], () => undefined);
    (cards()[0] as HTMLElement).focus();
    drawInbox([approval('int_2')], () => undefined);
    expect((document.activeElement as HTMLElement).dataset.interaction).toBe('int_2');
    drawInbox([], () => undefined);
    expect(document.activeElement?.id).toBe('inbox-heading');
  });
});
