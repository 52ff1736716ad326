/**
 * The console page's script, bundled into the page at build time (never a script in a
 * string). Everything from the server is written with textContent after `neutralise`. The list,
 * the inbox and the chosen session's timeline arrive on one stream (live.ts); the page asks the
 * server nothing on a timer.
 */
import { api, openAnotherTab, readCredential, showLogin, useToken } from './api.js';
import { byId, clean, el, inputById, setStatus, str } from './dom.js';
import { EarlierTurns } from './earlier.js';
import { drawInbox, inboxKeys, type Pending } from './inbox.js';
import { liveText, ownerText, refusalText } from './labels.js';
import { LiveStream } from './live.js';
import { drawPool } from './pool.js';
import { refreshTimes } from './relative.js';
import { drawSessions, FILTERS, type Row } from './sessions-table.js';

const FILTER_KEY = 'relvo.filter';

const state = {
  selected: sessionStorage.getItem('relvo.session') ?? '',
  filter: sessionStorage.getItem(FILTER_KEY) ?? 'all',
  sessions: [] as Row[],
  pending: [] as Pending[],
};

function summary(): void {
  const current = state.sessions.find((s) => s.sessionId === state.selected);
  byId('detail-summary').textContent =
    current === undefined
      ? ''
      : clean(
          `${liveText(current.liveState, current.waitingFor)} · owner: ${ownerText(current.owner)} · ${String(current.turns)} turn${current.turns === 1 ? '' : 's'} · ${String(current.usage.inputTokens)} in / ${String(current.usage.outputTokens)} out tokens`,
        );
  const title = current?.title ?? state.selected;
  byId('detail-title').textContent = clean(title);
  setStatus(
    `${String(state.sessions.length)} sessions · ${String(state.pending.length)} waiting · live`,
  );
}

function redrawSessions(): void {
  drawSessions(state.sessions, state.filter, state.selected, select);
  summary();
}

const earlier = new EarlierTurns(byId('earlier'));

const live = new LiveStream({
  sessions(rows) {
    state.sessions = rows;
    redrawSessions();
  },
  inbox(pending) {
    state.pending = pending;
    drawInbox(pending, () => undefined);
    summary();
  },
  pool(data) {
    drawPool(byId('pool'), data);
  },
  answered: () => undefined,
  lost(reason) {
    setStatus(`session refused (${reason})`);
    select('');
  },
});

function select(sessionId: string): void {
  state.selected = sessionId;
  sessionStorage.setItem('relvo.session', sessionId);
  live.follow(sessionId);
  earlier.follow(sessionId);
  redrawSessions();
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

function filterControl(): void {
  const control = byId('state-filter');
  if (!(control instanceof HTMLSelectElement)) return;
  for (const [value, label] of FILTERS) {
    const option = el('option', '', label);
    option.value = value;
    control.append(option);
  }
  control.value = FILTERS.some(([v]) => v === state.filter) ? state.filter : 'all';
  control.addEventListener('change', () => {
    state.filter = control.value;
    sessionStorage.setItem(FILTER_KEY, control.value);
    redrawSessions();
  });
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
filterControl();
inboxKeys();
// relative times are redrawn from the page's clock: no request
setInterval(() => {
  refreshTimes(document);
}, 15_000);

void readCredential().then((ok) => {
  if (!ok) {
    showLogin();
    return;
  }
  select(state.selected);
});
