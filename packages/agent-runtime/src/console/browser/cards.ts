/**
 * Interaction cards (inbox and timeline): what is asked, the whole subject, the scope, then
 * the inputs and the buttons — after the detail in the DOM and on screen, so nobody approves
 * what they have not been shown.
 */
import { api } from './api.js';
import { clean, el, isRecord, setStatus, str } from './dom.js';
import { renderDetail, scopeLine } from './detail.js';
import { refusalText } from './labels.js';
import { answerForm, type Built } from './questions.js';

export interface PendingItem {
  readonly interactionId: string;
  readonly request: Record<string, unknown>;
}

const APPROVE: Readonly<Record<string, readonly [string, string]>> = {
  once: ['Approve', 'approve'],
  session: ['Approve for the session', 'approve-session'],
  persistent: ['Approve always', 'approve-persistent'],
};

type Answer = readonly [label: string, key: string, build: () => Built];

function approvalParts(request: Record<string, unknown>, card: HTMLElement): Answer[] {
  const subject = isRecord(request['subject']) ? request['subject'] : {};
  const category = str(subject['category'], 'other');
  const detail = isRecord(subject['detail']) ? subject['detail'] : undefined;
  const modes = Array.isArray(request['allowedModes']) ? request['allowedModes'].map(String) : [];
  const head = el('div', 'subject');
  head.append(
    el('span', 'category', category),
    el('span', 'risk', ` · risk ${str(request['riskHint'], 'medium')}`),
  );
  card.append(head, el('div', 'text summary', subject['summary'] ?? ''));
  if (detail !== undefined) card.append(renderDetail(detail));
  card.append(el('div', 'scope muted', scopeLine(category, modes, detail)));
  const answers: Answer[] = modes.flatMap((mode): Answer[] => {
    const known = APPROVE[mode];
    if (known === undefined) return [];
    return [
      [
        known[0],
        known[1],
        () => ({ ok: true, body: { kind: 'approval', decision: 'approved', mode } }),
      ],
    ];
  });
  answers.push([
    'Deny',
    'deny',
    () => ({ ok: true, body: { kind: 'approval', decision: 'denied' } }),
  ]);
  return answers;
}

function questionParts(request: Record<string, unknown>, card: HTMLElement): Answer[] {
  if (request['kind'] === 'question')
    card.append(el('div', 'text summary', request['prompt'] ?? ''));
  const form = answerForm(request);
  card.append(form.node);
  return [['Answer', 'answer', form.build]];
}

export function interactionCard(
  sessionId: string,
  item: PendingItem,
  after: () => void,
): HTMLElement {
  const card = el('div', 'interaction');
  card.dataset.interaction = item.interactionId;
  const head = el('div');
  head.append(
    el('span', 'label', item.request['kind'] ?? 'interaction'),
    el('span', 'outcome', 'pending'),
  );
  card.append(head);
  const answers =
    item.request['kind'] === 'approval'
      ? approvalParts(item.request, card)
      : questionParts(item.request, card);
  const actions = el('div', 'actions');
  for (const [label, key, build] of answers) {
    const button = el('button', key === 'deny' ? '' : 'primary', label);
    button.dataset.answer = key;
    button.addEventListener('click', () => {
      const built = build();
      if (!built.ok) {
        note(card, built.why, false);
        return;
      }
      void answer(sessionId, item.interactionId, built.body, card).then(after);
    });
    actions.append(button);
  }
  card.append(actions, el('div', 'note'));
  return card;
}

function note(card: HTMLElement, text: string, ok: boolean): void {
  const n = card.querySelector('.note');
  if (n === null) return;
  n.className = ok ? 'note' : 'note refused';
  n.textContent = clean(text);
}

async function answer(
  sessionId: string,
  interactionId: string,
  body: unknown,
  card: HTMLElement,
): Promise<void> {
  for (const b of card.querySelectorAll('button')) b.disabled = true;
  const res = await api('POST', `/api/sessions/${sessionId}/interactions/${interactionId}`, body);
  const text = res.ok
    ? 'answered from this page'
    : refusalText(str(res.data['refused'], String(res.status)));
  // every card of this interaction says so, the timeline's too (it outlives the inbox's)
  for (const c of document.querySelectorAll<HTMLElement>(`[data-interaction="${interactionId}"]`))
    note(c, text, res.ok);
  if (!res.ok) setStatus(text);
}

function outcomeText(settlement: Record<string, unknown>): string {
  if (settlement['outcome'] !== 'responded') return String(settlement['outcome']);
  const r = isRecord(settlement['response']) ? settlement['response'] : {};
  return r['kind'] === 'approval' ? String(r['decision']) : 'answered';
}

export function settleCards(interactionId: string, settlement: Record<string, unknown>): void {
  for (const card of document.querySelectorAll<HTMLElement>(
    `[data-interaction="${interactionId}"]`,
  )) {
    card.classList.add('settled-card');
    const outcome = card.querySelector('.outcome');
    if (outcome !== null) outcome.textContent = clean(outcomeText(settlement));
    card.querySelector('.actions')?.remove();
    for (const input of card.querySelectorAll('input')) input.disabled = true;
  }
}
