/**
 * A session's timeline: its envelopes read from the stream (fetch, so the token goes in a
 * header), rendered in sequence order; a reconnect resumes at the next sequence, bounded.
 */
import { authHeader } from './api.js';
import { interactionCard, settleCards, type PendingItem } from './cards.js';
import { byId, clean, el, isRecord, setStatus } from './dom.js';

interface Envelope {
  readonly sequence: number;
  readonly sessionId: string;
  readonly runId?: string;
  readonly payload: Record<string, unknown>;
}

const QUIET = new Set([
  'session.state_changed',
  'turn.state_changed',
  'run.state_changed',
  'run.started',
  'run.usage',
]);

const view = {
  next: 1,
  stream: undefined as AbortController | undefined,
  messages: new Map<string, HTMLElement>(),
  lastEntry: undefined as HTMLElement | undefined,
  after: (): void => undefined,
};

function add(node: HTMLElement): void {
  byId('timeline').append(node);
  view.lastEntry = node;
  node.scrollIntoView({ block: 'nearest' });
}

function s(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function errorCode(value: unknown): string {
  return isRecord(value) ? ` (${s(value['code'])})` : '';
}

function inputText(input: unknown): string {
  const parts =
    isRecord(input) && Array.isArray(input['parts']) ? input['parts'].filter(isRecord) : [];
  return parts.map((x) => (x['type'] === 'text' ? s(x['text']) : `[${s(x['type'])}]`)).join('\n');
}

function entry(env: Envelope): HTMLElement | undefined {
  const p = env.payload;
  switch (p['type']) {
    case 'session.opened':
      return el('div', 'entry quiet', `session opened on profile ${s(p['defaultProfile'])}`);
    case 'turn.started': {
      const node = el('div', 'entry you');
      node.append(
        el('span', 'label', `you · ${s(p['profile'])} · ${s(p['providerId'])}`),
        el('span', 'text', inputText(p['input'])),
      );
      return node;
    }
    case 'run.tool_activity': {
      const node = el('div', 'entry tool');
      node.append(el('span', 'label', `tool ${s(p['phase'])}`), el('span', 'mono', p['toolName']));
      if (p['detail'] !== undefined)
        node.append(el('pre', 'text', JSON.stringify(p['detail'], null, 1)));
      return node;
    }
    case 'interaction.requested': {
      const item: PendingItem = {
        interactionId: s(p['interactionId']),
        request: isRecord(p['request']) ? p['request'] : {},
      };
      const node = interactionCard(env.sessionId, item, view.after);
      node.classList.add('entry');
      return node;
    }
    case 'interaction.settled':
      settleCards(s(p['interactionId']), isRecord(p['settlement']) ? p['settlement'] : {});
      return undefined;
    case 'turn.settled':
      return el('div', 'entry settled', `turn ${s(p['state'])}${errorCode(p['error'])}`);
    case 'run.finished': {
      const t = isRecord(p['termination']) ? p['termination'] : {};
      return el('div', 'entry quiet', `run ${s(t['outcome'])}${errorCode(t['error'])}`);
    }
    case 'diagnostic':
      return el('div', 'entry quiet', `${s(p['level'])}: ${s(p['message'])}`);
    case 'session.closed':
      return el('div', 'entry settled', `session closed (${s(p['reason'])})`);
    default: {
      // a payload this page does not know (plans, diffs, later types): shown as its JSON
      const node = el('div', 'entry generic');
      node.append(el('span', 'label', p['type']), el('pre', 'text', JSON.stringify(p, null, 1)));
      return node;
    }
  }
}

function render(env: Envelope): void {
  const p = env.payload;
  if (p['type'] === 'run.message_delta') {
    const key = env.runId ?? '';
    let msg = view.messages.get(key);
    if (msg === undefined || view.lastEntry !== msg) {
      msg = el('div', 'entry message');
      view.messages.set(key, msg);
      add(msg);
    }
    msg.append(document.createTextNode(clean(s(p['text']))));
    return;
  }
  if (QUIET.has(s(p['type']))) return;
  const node = entry(env);
  if (node === undefined) return;
  node.dataset.sequence = String(env.sequence);
  add(node);
}

/** Reads the SSE blocks of one response; true when the server said the stream ended. */
async function readStream(res: Response): Promise<boolean> {
  if (res.body === null) return false;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return false;
    buf += value;
    let i: number;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const blockText = buf.slice(0, i);
      buf = buf.slice(i + 2);
      let event = 'message';
      let data = '';
      for (const line of blockText.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (event === 'end') return true;
      if (event !== 'envelope') continue;
      const env = JSON.parse(data) as Envelope;
      if (env.sequence === view.next) {
        render(env);
        view.next += 1;
      }
    }
  }
}

export async function follow(sessionId: string, after: () => void): Promise<void> {
  view.stream?.abort();
  const ctrl = new AbortController();
  view.stream = ctrl;
  view.after = after;
  byId('timeline').replaceChildren();
  view.messages = new Map();
  view.lastEntry = undefined;
  view.next = 1;
  const aborted = (): boolean => ctrl.signal.aborted;
  for (let attempt = 0; attempt < 30 && !aborted(); attempt++) {
    try {
      const res = await fetch(`/api/sessions/${sessionId}/stream?from=${String(view.next)}`, {
        headers: authHeader(),
        signal: ctrl.signal,
      });
      if (!res.ok) {
        setStatus(`stream refused (${String(res.status)})`);
        return;
      }
      if (await readStream(res)) {
        byId('timeline').dataset.ended = 'true';
        return;
      }
    } catch {
      if (aborted()) return;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}
