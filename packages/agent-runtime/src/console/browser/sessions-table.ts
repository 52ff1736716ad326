/**
 * The sessions table: one row per session named by its title (the first prompt, as the server
 * cut and neutralised it), with its live state in words, owner, tokens and times said
 * relatively; a filter by live state. Each row's title is a button, so the table is reached
 * and used by keyboard in reading order.
 */
import { byId, clean, el } from './dom.js';
import { liveText, ownerText } from './labels.js';
import { timeElement } from './relative.js';

export interface Row {
  readonly sessionId: string;
  readonly title?: string;
  readonly owner: string;
  readonly liveState: string;
  readonly waitingFor?: string;
  readonly profiles: string[];
  readonly defaultProfile: string;
  readonly providers: string[];
  readonly turns: number;
  readonly usage: { inputTokens: number; outputTokens: number; totalTokens: number };
  readonly lastTurn?: { state?: string; durationMs?: number };
  readonly openedAt: string;
  readonly updatedAt: string;
}

/** Filter values: a live state, or a group of them. */
const GROUPS: Readonly<Record<string, readonly string[]>> = {
  attention: ['waiting', 'stalled'],
  open: ['running', 'waiting', 'idle', 'stalled'],
  ended: ['closed', 'failed'],
};

export const FILTERS: readonly (readonly [value: string, label: string])[] = [
  ['all', 'all sessions'],
  ['attention', 'needing attention'],
  ['open', 'open'],
  ['running', 'running'],
  ['waiting', 'waiting'],
  ['idle', 'idle'],
  ['stalled', 'stalled'],
  ['ended', 'closed or failed'],
];

export function matches(filter: string, liveState: string): boolean {
  if (filter === 'all' || filter === '') return true;
  return (GROUPS[filter] ?? [filter]).includes(liveState);
}

/** 1234 → "1.2k": the exact counts are in the cell's title. */
export function compactCount(n: number): string {
  if (!Number.isFinite(n) || n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

function lastTurnText(s: Row): string {
  const t = s.lastTurn;
  const turns = `${String(s.turns)} turn${s.turns === 1 ? '' : 's'}`;
  if (t === undefined) return turns;
  const took = t.durationMs === undefined ? '' : ` ${(t.durationMs / 1000).toFixed(1)} s`;
  return `${turns}, last ${t.state ?? 'running'}${took}`;
}

function titleCell(s: Row, select: (id: string) => void): HTMLElement {
  const td = el('td', 'title-cell');
  const open = el('button', 'row-title', s.title ?? 'untitled session');
  open.type = 'button';
  if (s.title === undefined) open.classList.add('untitled');
  open.addEventListener('click', (event) => {
    event.stopPropagation();
    select(s.sessionId);
  });
  const profile = s.profiles.join(', ') || s.defaultProfile;
  const meta = el('div', 'meta');
  const id = el('span', 'sid', `${s.sessionId.slice(0, 12)}…`);
  id.title = s.sessionId;
  meta.append(
    id,
    ` · ${clean(profile)} · ${clean(s.providers.join(', ') || '–')} · ${clean(lastTurnText(s))} · opened `,
    timeElement(s.openedAt),
  );
  td.append(open, meta);
  return td;
}

export function sessionRow(s: Row, selected: string, select: (id: string) => void): HTMLElement {
  const tr = el('tr', `session-row${s.sessionId === selected ? ' selected' : ''}`);
  tr.dataset.session = s.sessionId;
  tr.dataset.owner = clean(s.owner);
  tr.dataset.liveState = clean(s.liveState);
  if (s.sessionId === selected) tr.setAttribute('aria-current', 'true');
  const stateCell = el('td', 'state-cell');
  stateCell.append(
    el('span', `badge state-${clean(s.liveState)}`, liveText(s.liveState, s.waitingFor)),
    el('div', 'owner', ownerText(s.owner)),
  );
  const tokens = el('td', 'num', compactCount(s.usage.totalTokens));
  tokens.title = `${String(s.usage.inputTokens)} in / ${String(s.usage.outputTokens)} out`;
  const updated = el('td', 'when');
  updated.append(timeElement(s.updatedAt));
  tr.append(titleCell(s, select), stateCell, tokens, updated);
  tr.addEventListener('click', () => {
    select(s.sessionId);
  });
  return tr;
}

/** Draws the rows the filter admits; the filter's options count the sessions they admit. */
export function drawSessions(
  sessions: readonly Row[],
  filter: string,
  selected: string,
  select: (id: string) => void,
): void {
  const shown = sessions.filter((s) => matches(filter, s.liveState));
  const rows = shown.map((s) => sessionRow(s, selected, select));
  if (rows.length === 0) {
    const tr = el('tr', 'empty');
    const td = el(
      'td',
      'muted',
      sessions.length === 0 ? 'No session in the log yet.' : 'No session matches the filter.',
    );
    td.colSpan = 4;
    tr.append(td);
    rows.push(tr);
  }
  byId('sessions').replaceChildren(...rows);
  const select_ = byId('state-filter');
  if (!(select_ instanceof HTMLSelectElement)) return;
  for (const option of select_.options) {
    const n = sessions.filter((s) => matches(option.value, s.liveState)).length;
    const label = FILTERS.find(([v]) => v === option.value)?.[1] ?? option.value;
    option.textContent = `${label} (${String(n)})`;
  }
  byId('sessions-shown').textContent =
    shown.length === sessions.length
      ? ''
      : `${String(shown.length)} of ${String(sessions.length)} shown`;
}
