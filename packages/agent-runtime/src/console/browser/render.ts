/**
 * A session's envelopes drawn as the work they describe, in sequence order, into one timeline
 * element. Entries that stand for one thing that changes (a message as it streams, a tool call,
 * a turn's plan, diff and reasoning summary) are drawn once and updated in place; a turn's
 * usage is drawn on the line that says how it ended.
 * Records of the runtime's own bookkeeping are drawn too, marked `internal`, and shown only
 * while the timeline's details toggle is on.
 */
import { showAnswer } from './answers.js';
import { interactionCard, settleCards, type PendingItem } from './cards.js';
import { drawDiff } from './changes.js';
import { el, isRecord, str } from './dom.js';
import { drawPlan, drawReasoning, structuredEntry, unknownExtension } from './extensions.js';
import { internalEntry, isInternal } from './internal.js';
import { GrowingMarkdown } from './markdown.js';
import { drawTool, type ToolCall } from './tools.js';
import { TurnUsage } from './usage.js';

export interface Envelope {
  readonly sequence: number;
  readonly sessionId: string;
  readonly runId?: string | undefined;
  readonly occurredAt?: string | undefined;
  readonly payload: Record<string, unknown>;
}

interface Message {
  readonly node: HTMLElement;
  readonly drawn: GrowingMarkdown;
  text: string;
}

function errorCode(value: unknown): string {
  return isRecord(value) ? ` (${str(value['code'])})` : '';
}

export function inputText(input: unknown): string {
  const parts =
    isRecord(input) && Array.isArray(input['parts']) ? input['parts'].filter(isRecord) : [];
  return parts
    .map((x) => (x['type'] === 'text' ? str(x['text']) : `[${str(x['type'])}]`))
    .join('\n');
}

export class TimelineView {
  readonly #root: HTMLElement;
  readonly #answered: () => void;
  #last: Node | undefined;
  readonly #messages = new Map<string, Message>();
  readonly #tools = new Map<string, { node: HTMLElement; call: ToolCall }>();
  readonly #usage = new TurnUsage();
  /** One per run: a plan, a diff. */
  readonly #perRun = new Map<string, HTMLElement>();
  readonly #reasoning = new Map<string, { node: HTMLElement; parts: string[] }>();
  readonly #requests = new Map<string, Record<string, unknown>>();
  readonly #recordedAnswers = new Set<string>();
  #dirty = new Set<Message>();
  #scheduled = false;
  /** How long the last flush took: the next waits three times that (drawing ≤ 1/4 of the time). */
  #flushMs = 0;

  constructor(root: HTMLElement, answered: () => void) {
    this.#root = root;
    this.#answered = answered;
  }

  #add(node: HTMLElement, env: Envelope): void {
    node.dataset.sequence = String(env.sequence);
    this.#root.append(node);
    // an internal line is hidden by default: it does not cut a streaming message in two
    if (node.classList.contains('internal')) return;
    this.#last = node;
    node.scrollIntoView({ block: 'nearest' });
  }

  /** The entry of `key` (made by `make` and added at this point the first time). */
  #once(
    map: Map<string, HTMLElement>,
    key: string,
    env: Envelope,
    make: () => HTMLElement,
  ): HTMLElement {
    let node = map.get(key);
    if (node === undefined) {
      node = make();
      map.set(key, node);
      this.#add(node, env);
    }
    return node;
  }

  render(env: Envelope): void {
    const p = env.payload;
    const type = str(p['type']);
    if (type === 'run.started') this.#usage.started(env.runId, p['turnId']);
    if (type === 'run.message_delta') this.#delta(env, str(p['text']));
    else if (type === 'run.tool_activity') this.#tool(env);
    else if (type === 'run.extension') this.#extension(env);
    else if (type === 'run.usage') this.#usage.reported(env.runId, p['usage']);
    else if (type === 'interaction.answered') {
      this.#recordedAnswers.add(str(p['interactionId']));
      this.#add(internalEntry(p), env);
    } else if (type === 'interaction.settled') this.#settled(p);
    else if (isInternal(p)) this.#add(internalEntry(p), env);
    else {
      const node = this.#entry(env);
      if (node !== undefined) this.#add(node, env);
    }
  }

  /**
   * Message text streams in pieces: drawn as markdown once the pieces at hand are in (a batch
   * read from the stream is drawn once), and no more often than a quarter of the time, so a
   * very long paragraph streaming in small pieces cannot keep the page busy.
   */
  #delta(env: Envelope, text: string): void {
    const key = env.runId ?? '';
    let msg = this.#messages.get(key);
    if (msg === undefined || this.#last !== msg.node) {
      const node = el('div', 'entry message md');
      msg = { node, drawn: new GrowingMarkdown(node), text: '' };
      this.#messages.set(key, msg);
      this.#add(msg.node, env);
    }
    msg.text += text;
    this.#dirty.add(msg);
    if (this.#scheduled) return;
    this.#scheduled = true;
    const run = (): void => {
      this.#scheduled = false;
      this.flush();
    };
    const wait = 3 * this.#flushMs;
    if (wait < 1) queueMicrotask(run);
    else setTimeout(run, Math.min(wait, 1000));
  }

  /** Draws the messages that changed since the last flush (tests call it directly). */
  flush(): void {
    const started = performance.now();
    for (const msg of this.#dirty) msg.drawn.draw(msg.text);
    if (this.#dirty.size > 0) this.#flushMs = performance.now() - started;
    this.#dirty = new Set();
  }

  #tool(env: Envelope): void {
    const p = env.payload;
    const detail = isRecord(p['detail']) ? p['detail'] : {};
    const id =
      typeof detail['activityId'] === 'string'
        ? detail['activityId']
        : `seq-${String(env.sequence)}`;
    const key = `${env.runId ?? ''}/${id}`;
    let known = this.#tools.get(key);
    if (known === undefined) {
      known = {
        node: el('div', 'entry tool'),
        call: { toolName: str(p['toolName']), phase: '', detail: {} },
      };
      this.#tools.set(key, known);
      this.#add(known.node, env);
    }
    known.call.phase = str(p['phase']);
    known.call.detail = { ...known.call.detail, ...detail };
    drawTool(known.node, known.call);
  }

  #extension(env: Envelope): void {
    const p = env.payload;
    const data = isRecord(p['data']) ? p['data'] : {};
    const run = env.runId ?? '';
    const kind = p['namespace'] === 'codex' ? str(p['kind']) : '';
    if (kind === 'plan') {
      drawPlan(
        this.#once(this.#perRun, `plan/${run}`, env, () => el('div', 'entry plan')),
        data,
      );
    } else if (kind === 'diff') {
      drawDiff(
        this.#once(this.#perRun, `diff/${run}`, env, () => el('div', 'entry diff')),
        data,
      );
    } else if (kind === 'reasoning_summary') {
      const key = `${run}/${str(data['itemId'])}`;
      let r = this.#reasoning.get(key);
      if (r === undefined) {
        r = { node: el('div', 'entry reasoning'), parts: [] };
        this.#reasoning.set(key, r);
        this.#add(r.node, env);
      }
      const index = typeof data['summaryIndex'] === 'number' ? data['summaryIndex'] : 0;
      // the index comes from the provider: a hole is filled, never an array of millions
      if (index >= 0 && index < 1000) {
        while (r.parts.length <= index) r.parts.push('');
        r.parts[index] = `${r.parts[index] ?? ''}${str(data['delta'])}`;
      }
      drawReasoning(r.node, r.parts);
    } else if (kind === 'structured_output') this.#add(structuredEntry(data), env);
    else this.#add(unknownExtension(p), env);
  }

  #settled(p: Record<string, unknown>): void {
    const id = str(p['interactionId']);
    const settlement = isRecord(p['settlement']) ? p['settlement'] : {};
    settleCards(id, settlement);
    for (const card of this.#root.querySelectorAll<HTMLElement>(
      `[data-interaction="${CSS.escape(id)}"]`,
    ))
      showAnswer(card, this.#requests.get(id) ?? {}, settlement, this.#recordedAnswers.has(id));
  }

  #entry(env: Envelope): HTMLElement | undefined {
    const p = env.payload;
    switch (p['type']) {
      case 'session.opened':
        return el('div', 'entry quiet', `session opened on profile ${str(p['defaultProfile'])}`);
      case 'turn.started': {
        const node = el('div', 'entry you');
        node.append(
          el('span', 'label', `you · ${str(p['profile'])} · ${str(p['providerId'])}`),
          el('span', 'text', inputText(p['input'])),
        );
        return node;
      }
      case 'run.steered': {
        const node = el('div', 'entry you');
        node.append(
          el('span', 'label', 'you, while it ran'),
          el('span', 'text', inputText(p['input'])),
        );
        return node;
      }
      case 'context.injected': {
        // the host's own text for the model, outside a turn: each item with its role
        const node = el('div', 'entry you context');
        node.append(el('span', 'label', `context added for ${str(p['profile'])}`));
        for (const item of Array.isArray(p['items']) ? p['items'].filter(isRecord) : [])
          node.append(el('div', 'text', `${str(item['role'])}: ${str(item['text'])}`));
        return node;
      }
      case 'interaction.requested': {
        const item: PendingItem = {
          interactionId: str(p['interactionId']),
          request: isRecord(p['request']) ? p['request'] : {},
        };
        this.#requests.set(item.interactionId, item.request);
        const node = interactionCard(env.sessionId, item, this.#answered);
        node.classList.add('entry');
        return node;
      }
      case 'turn.settled': {
        const node = el('div', 'entry settled', `turn ${str(p['state'])}${errorCode(p['error'])}`);
        node.append(...this.#usage.part(p['turnId']));
        return node;
      }
      case 'run.finished': {
        const t = isRecord(p['termination']) ? p['termination'] : {};
        return el('div', 'entry quiet', `run ${str(t['outcome'])}${errorCode(t['error'])}`);
      }
      case 'run.interrupt_requested':
        return el('div', 'entry quiet', 'interrupt requested');
      case 'diagnostic':
        return el('div', 'entry quiet', `${str(p['level'])}: ${str(p['message'])}`);
      case 'session.revert_requested':
        return el('div', 'entry quiet', `undo requested: the last ${turnsOf(p)}`);
      case 'session.reverted':
        // codex takes the conversation back; the files stay as the turns left them
        return el(
          'div',
          'entry settled',
          `undone: the last ${turnsOf(p)} taken back (files ${str(p['files'])})`,
        );
      case 'session.closed':
        return el('div', 'entry settled', `session closed (${str(p['reason'])})`);
      default: {
        // a payload this page does not know: shown as its JSON, as text
        const node = el('div', 'entry generic');
        node.append(el('span', 'label', p['type']), el('pre', 'json', JSON.stringify(p, null, 2)));
        return node;
      }
    }
  }
}

function turnsOf(p: Record<string, unknown>): string {
  const n = typeof p['turns'] === 'number' ? p['turns'] : 0;
  return n === 1 ? 'turn' : `${String(n)} turns`;
}
