/**
 * The console page's script (plain browser JavaScript, inlined into the page). Everything from
 * the server is written with textContent after `clean`, never parsed as HTML. Streams are read
 * with fetch so the token goes in a header, never a URL. `UNSAFE` is defined before this text.
 */
export const PAGE_SCRIPT = String.raw`
'use strict';
const $ = (id) => document.getElementById(id);
const visible = (ch) => {
  if (ch === '\r') return '\\r';
  const code = ch.charCodeAt(0);
  return code < 0x80 ? '\\x' + code.toString(16).padStart(2, '0') : '<U+' + code.toString(16).toUpperCase().padStart(4, '0') + '>';
};
const clean = (value) => String(value).replace(UNSAFE, visible);
const el = (tag, cls, text) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = clean(text);
  return node;
};
const state = { token: '', selected: '', next: 1, stream: null, messages: new Map(), lastEntry: null, inboxKey: null };

function readToken() {
  const m = /^#token=([^&]+)/.exec(location.hash);
  if (m) {
    sessionStorage.setItem('relvo.token', decodeURIComponent(m[1]));
    history.replaceState(null, '', location.pathname);
  }
  state.token = sessionStorage.getItem('relvo.token') || '';
  state.selected = sessionStorage.getItem('relvo.session') || '';
}

function setStatus(text) { $('status').textContent = clean(text); }

async function api(method, path, body) {
  const headers = { authorization: 'Bearer ' + state.token };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = {};
  try { data = await res.json(); } catch (e) { data = {}; }
  if (res.status === 401) showLogin();
  return { ok: res.ok, status: res.status, data };
}

function showLogin() { $('login').classList.remove('hidden'); $('app').classList.add('hidden'); }

function describeRequest(request) {
  if (request.kind === 'approval') return request.subject.category + ': ' + request.subject.summary;
  if (request.kind === 'question') return request.prompt;
  return request.questions.map((q) => q.key + ': ' + q.prompt).join('\n');
}

function outcomeText(settlement) {
  if (settlement.outcome !== 'responded') return settlement.outcome;
  const r = settlement.response;
  return r.kind === 'approval' ? r.decision : 'answered';
}

function answerBodies(request, card) {
  if (request.kind === 'approval') {
    return [['Approve', { kind: 'approval', decision: 'approved', mode: 'once' }], ['Deny', { kind: 'approval', decision: 'denied' }]];
  }
  const input = el('input', 'answer-input');
  card.append(input);
  if (request.kind === 'question') return [['Answer', () => ({ kind: 'question', answer: input.value })]];
  const key = request.questions[0].key;
  return [['Answer', () => ({ kind: 'question_set', answers: { [key]: { type: 'text', text: input.value } } })]];
}

function interactionCard(sessionId, item) {
  const card = el('div', 'interaction');
  card.dataset.interaction = item.interactionId;
  const head = el('div');
  head.append(el('span', 'label', item.request.kind), el('span', 'outcome', 'pending'));
  card.append(head, el('div', 'text', describeRequest(item.request)));
  const detail = item.request.kind === 'approval' ? item.request.subject.detail : undefined;
  if (detail) card.append(el('pre', 'text', JSON.stringify(detail, null, 1)));
  const actions = el('div', 'actions');
  for (const [label, body] of answerBodies(item.request, card)) {
    const button = el('button', label === 'Deny' ? '' : 'primary', label);
    button.dataset.answer = label.toLowerCase();
    button.addEventListener('click', () => answer(sessionId, item.interactionId, typeof body === 'function' ? body() : body, card));
    actions.append(button);
  }
  card.append(actions, el('div', 'note'));
  return card;
}

async function answer(sessionId, interactionId, body, card) {
  for (const b of card.querySelectorAll('button')) b.disabled = true;
  const res = await api('POST', '/api/sessions/' + sessionId + '/interactions/' + interactionId, body);
  const text = res.ok ? 'answered from this page' : clean('refused: ' + (res.data.refused || res.status));
  // every card of this interaction says so, the timeline's too (it outlives the inbox's)
  for (const c of document.querySelectorAll('[data-interaction="' + interactionId + '"]')) {
    const note = c.querySelector('.note');
    if (note) { note.className = res.ok ? 'note' : 'note refused'; note.textContent = text; }
  }
  if (!res.ok) setStatus(text);
  refresh();
}

function settleCards(interactionId, settlement) {
  for (const card of document.querySelectorAll('[data-interaction="' + interactionId + '"]')) {
    card.classList.add('settled-card');
    card.querySelector('.outcome').textContent = clean(outcomeText(settlement));
    const actions = card.querySelector('.actions');
    if (actions) actions.remove();
  }
}

const QUIET = new Set(['session.state_changed', 'turn.state_changed', 'run.state_changed', 'run.started', 'run.usage']);

function add(node) { $('timeline').append(node); state.lastEntry = node; node.scrollIntoView({ block: 'nearest' }); }

function render(env) {
  const p = env.payload;
  if (p.type === 'run.message_delta') {
    let msg = state.messages.get(env.runId);
    if (!msg || state.lastEntry !== msg) { msg = el('div', 'entry message'); state.messages.set(env.runId, msg); add(msg); }
    msg.append(document.createTextNode(clean(p.text)));
    return;
  }
  if (QUIET.has(p.type)) return;
  let node;
  switch (p.type) {
    case 'session.opened': node = el('div', 'entry quiet', 'session opened on profile ' + p.defaultProfile); break;
    case 'turn.started':
      node = el('div', 'entry you');
      node.append(el('span', 'label', 'you · ' + p.profile + ' · ' + p.providerId), el('span', 'text', p.input.parts.map((x) => x.type === 'text' ? x.text : '[' + x.type + ']').join('\n')));
      break;
    case 'run.tool_activity':
      node = el('div', 'entry tool');
      node.append(el('span', 'label', 'tool ' + p.phase), el('span', 'mono', p.toolName));
      if (p.detail) node.append(el('pre', 'text', JSON.stringify(p.detail, null, 1)));
      break;
    case 'interaction.requested':
      node = interactionCard(env.sessionId, { interactionId: p.interactionId, request: p.request });
      node.classList.add('entry');
      break;
    case 'interaction.settled': settleCards(p.interactionId, p.settlement); return;
    case 'turn.settled': node = el('div', 'entry settled', 'turn ' + p.state + (p.error ? ' (' + p.error.code + ')' : '')); break;
    case 'run.finished': node = el('div', 'entry quiet', 'run ' + p.termination.outcome + (p.termination.error ? ' (' + p.termination.error.code + ')' : '')); break;
    case 'diagnostic': node = el('div', 'entry quiet', p.level + ': ' + p.message); break;
    case 'session.closed': node = el('div', 'entry settled', 'session closed (' + p.reason + ')'); break;
    default:
      // a payload this page does not know (plans, diffs, later types): shown as its JSON
      node = el('div', 'entry generic');
      node.append(el('span', 'label', p.type), el('pre', 'text', JSON.stringify(p, null, 1)));
  }
  node.dataset.sequence = String(env.sequence);
  add(node);
}

async function follow(sessionId) {
  if (state.stream) state.stream.abort();
  const ctrl = new AbortController();
  state.stream = ctrl;
  $('timeline').replaceChildren();
  state.messages = new Map(); state.lastEntry = null; state.next = 1;
  for (let attempt = 0; attempt < 30 && !ctrl.signal.aborted; attempt++) {
    let ended = false;
    try {
      const res = await fetch('/api/sessions/' + sessionId + '/stream?from=' + state.next, { headers: { authorization: 'Bearer ' + state.token }, signal: ctrl.signal });
      if (!res.ok) { setStatus('stream refused (' + res.status + ')'); return; }
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i); buf = buf.slice(i + 2);
          let event = 'message'; let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (event === 'envelope') {
            const env = JSON.parse(data);
            if (env.sequence === state.next) { render(env); state.next += 1; }
          } else if (event === 'end') ended = true;
        }
      }
    } catch (e) { if (ctrl.signal.aborted) return; }
    if (ended) { $('timeline').dataset.ended = 'true'; return; }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

function select(sessionId) {
  state.selected = sessionId;
  sessionStorage.setItem('relvo.session', sessionId);
  $('detail-title').textContent = clean(sessionId);
  follow(sessionId);
  refresh();
}

function cell(text) { return el('td', '', text); }

async function refresh() {
  const [list, inbox] = await Promise.all([api('GET', '/api/sessions'), api('GET', '/api/inbox')]);
  if (!list.ok || !inbox.ok) { setStatus('refused (' + list.status + ')'); return; }
  setStatus(list.data.sessions.length + ' sessions · ' + inbox.data.pending.length + ' waiting');
  const rows = list.data.sessions.map((s) => {
    const tr = el('tr', 'session-row' + (s.sessionId === state.selected ? ' selected' : ''));
    tr.dataset.session = s.sessionId;
    const stateCell = cell('');
    stateCell.append(el('span', 'badge' + (s.live ? ' live' : ''), s.live ? 'live' : 'finished'), document.createTextNode(' ' + clean(s.state)));
    const last = s.lastTurn ? (s.lastTurn.state || 'running') + (s.lastTurn.durationMs !== undefined ? ' ' + (s.lastTurn.durationMs / 1000).toFixed(1) + ' s' : '') : '–';
    tr.append(cell(s.sessionId.slice(0, 14) + '…'), stateCell, cell(s.profiles.join(', ') || s.defaultProfile), cell(s.providers.join(', ') || '–'), cell(s.turns), cell(s.usage.totalTokens), cell(last), cell(new Date(s.openedAt).toLocaleTimeString()));
    tr.addEventListener('click', () => select(s.sessionId));
    return tr;
  });
  $('sessions').replaceChildren(...rows);
  const current = list.data.sessions.find((s) => s.sessionId === state.selected);
  $('detail-summary').textContent = current ? clean(current.state + ' · ' + current.turns + ' turns · ' + current.usage.inputTokens + ' in / ' + current.usage.outputTokens + ' out tokens' + (current.live ? '' : ' · finished')) : '';
  const key = inbox.data.pending.map((item) => item.interactionId).join(',');
  if (key === state.inboxKey) return;
  state.inboxKey = key;
  const cards = inbox.data.pending.map((item) => {
    const card = interactionCard(item.sessionId, item);
    card.prepend(el('div', 'label', item.sessionId));
    return card;
  });
  if (cards.length === 0) cards.push(el('p', 'muted', 'Nothing waits for an answer.'));
  $('inbox').replaceChildren(...cards);
}

async function command(path, body) {
  if (!state.selected) { setStatus('choose a session first'); return; }
  const res = await api('POST', '/api/sessions/' + state.selected + path, body);
  if (!res.ok) setStatus('refused: ' + (res.data.refused || res.status));
}

$('send').addEventListener('click', async () => {
  const input = $('prompt').value;
  if (input.trim() === '') return;
  $('prompt').value = '';
  await command('/turns', { input });
});
$('interrupt').addEventListener('click', () => command('/interrupt'));
$('new-session').addEventListener('click', async () => {
  const res = await api('POST', '/api/sessions', {});
  if (res.ok) select(res.data.sessionId); else setStatus('refused: ' + (res.data.refused || res.status));
});
$('token-save').addEventListener('click', () => {
  sessionStorage.setItem('relvo.token', $('token-input').value.trim());
  location.reload();
});

readToken();
if (!state.token) showLogin();
else {
  if (state.selected) select(state.selected); else refresh();
  setInterval(refresh, 1000);
}
`;
