/**
 * The console page's script, bundled into the page at build time (never a script in a
 * string). Everything from the server is written with textContent after `neutralise`.
 */
import { api, openAnotherTab, readCredential, showLogin, useToken } from './api.js';
import { interactionCard, type PendingItem } from './cards.js';
import { byId, clean, el, inputById, isRecord, setStatus, str } from './dom.js';
import { liveText, ownerText, refusalText } from './labels.js';
import { follow } from './timeline.js';

const state = { selected: sessionStorage.getItem('relvo.session') ?? '', inboxKey: '' };

interface Row {
  readonly sessionId: string;
  readonly owner: string;
  readonly liveState: string;
  readonly profiles: string[];
  readonly defaultProfile: string;
  readonly providers: string[];
  readonly turns: number;
  readonly usage: { inputTokens: number; outputTokens: number; totalTokens: number };
  readonly lastTurn?: { state?: string; durationMs?: number };
  readonly openedAt: string;
}

interface Pending extends PendingItem {
  readonly sessionId: string;
  readonly owner: string;
}

function select(sessionId: string): void {
  state.selected = sessionId;
  sessionStorage.setItem('relvo.session', sessionId);
  byId('detail-title').textContent = clean(sessionId);
  void follow(sessionId, () => void refresh());
  void refresh();
}

function cell(text: unknown): HTMLElement {
  return el('td', '', text);
}

function sessionRow(s: Row): HTMLElement {
  const tr = el('tr', `session-row${s.sessionId === state.selected ? ' selected' : ''}`);
  tr.dataset.session = s.sessionId;
  tr.dataset.owner = clean(s.owner);
  tr.dataset.liveState = clean(s.liveState);
  const stateCell = cell('');
  stateCell.append(el('span', `badge state-${clean(s.liveState)}`, liveText(s.liveState)));
  const t = s.lastTurn;
  const last =
    t === undefined
      ? '–'
      : `${t.state ?? 'running'}${t.durationMs === undefined ? '' : ` ${(t.durationMs / 1000).toFixed(1)} s`}`;
  tr.append(
    cell(`${s.sessionId.slice(0, 14)}…`),
    stateCell,
    cell(ownerText(s.owner)),
    cell(s.profiles.join(', ') || s.defaultProfile),
    cell(s.providers.join(', ') || '–'),
    cell(s.turns),
    cell(s.usage.totalTokens),
    cell(last),
    cell(new Date(s.openedAt).toLocaleTimeString()),
  );
  tr.addEventListener('click', () => {
    select(s.sessionId);
  });
  return tr;
}

async function refresh(): Promise<void> {
  const [list, inbox] = await Promise.all([api('GET', '/api/sessions'), api('GET', '/api/inbox')]);
  if (!list.ok || !inbox.ok) {
    setStatus(`refused (${String(list.status)})`);
    return;
  }
  const sessions = (Array.isArray(list.data['sessions']) ? list.data['sessions'] : []) as Row[];
  const pending = (Array.isArray(inbox.data['pending'])
    ? inbox.data['pending'].filter(isRecord)
    : []) as unknown as Pending[];
  setStatus(`${String(sessions.length)} sessions · ${String(pending.length)} waiting`);
  byId('sessions').replaceChildren(...sessions.map(sessionRow));
  const current = sessions.find((s) => s.sessionId === state.selected);
  byId('detail-summary').textContent =
    current === undefined
      ? ''
      : clean(
          `${liveText(current.liveState)} · owner: ${ownerText(current.owner)} · ${String(current.turns)} turns · ${String(current.usage.inputTokens)} in / ${String(current.usage.outputTokens)} out tokens`,
        );
  const key = pending.map((item) => item.interactionId).join(',');
  if (key === state.inboxKey) return;
  state.inboxKey = key;
  // a card still pending is kept as it is, so what a person typed into it survives
  const shown = new Map<string, HTMLElement>();
  for (const node of byId('inbox').querySelectorAll<HTMLElement>(':scope > [data-interaction]')) {
    shown.set(node.dataset.interaction ?? '', node);
  }
  const cards = pending.map((item) => {
    const kept = shown.get(item.interactionId);
    if (kept !== undefined) return kept;
    const card = interactionCard(item.sessionId, item, () => void refresh());
    card.dataset.owner = clean(item.owner);
    card.prepend(el('div', 'label', `${item.sessionId} · ${ownerText(item.owner)}`));
    return card;
  });
  if (cards.length === 0) cards.push(el('p', 'muted', 'Nothing waits for an answer.'));
  byId('inbox').replaceChildren(...cards);
}

async function command(path: string, done: string, body?: unknown): Promise<void> {
  if (state.selected === '') {
    setStatus('choose a session first');
    return;
  }
  // a routed command may wait for the owning process: the notice says so until it settles
  const notice = byId('notice');
  notice.className = 'muted';
  notice.textContent = 'sent; waiting for the process that owns the session…';
  const res = await api('POST', `/api/sessions/${state.selected}${path}`, body);
  notice.className = res.ok ? 'muted' : 'muted refused';
  notice.textContent = clean(
    res.ok ? done : refusalText(str(res.data['refused'], String(res.status))),
  );
}

byId('send').addEventListener('click', () => {
  const prompt = inputById('prompt');
  const input = prompt.value;
  if (input.trim() === '') return;
  prompt.value = '';
  void command('/turns', 'turn started', { input });
});
byId('interrupt').addEventListener('click', () => void command('/interrupt', 'interrupted'));
byId('undo').addEventListener(
  'click',
  () => void command('/revert', 'the last turn is taken back; files stay as they are'),
);
byId('new-tab').addEventListener('click', () => void openAnotherTab());
byId('new-session').addEventListener('click', () => {
  void api('POST', '/api/sessions', {}).then((res) => {
    if (res.ok) select(String(res.data['sessionId']));
    else setStatus(`refused: ${str(res.data['refused'], String(res.status))}`);
  });
});
byId('token-save').addEventListener('click', () => {
  useToken(inputById('token-input').value.trim());
  location.reload();
});

void readCredential().then((ok) => {
  if (!ok) {
    showLogin();
    return;
  }
  if (state.selected !== '') select(state.selected);
  else void refresh();
  setInterval(() => void refresh(), 1000);
});
