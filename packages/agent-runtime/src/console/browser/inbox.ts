/**
 * The inbox: every interaction pending in the log, as cards a person answers by pointer or by
 * keys. A card is one stop in the tab order (its buttons follow it); on a focused card `a`
 * approves once, `s` approves for the session, `d` denies, Ctrl+Enter sends a question's
 * answer, `j`/`k` (or the arrow keys) move to the next or previous card; `i` anywhere outside
 * a text field goes to the first card. Keys press the card's own buttons, so a key does exactly
 * what the button says, with the whole subject already on the card.
 */
import { interactionCard, type PendingItem } from './cards.js';
import { byId, clean, el, isRecord, str } from './dom.js';
import { ownerText } from './labels.js';

export interface Pending extends PendingItem {
  readonly sessionId: string;
  readonly owner: string;
}

/** key → the card button (`data-answer`) it presses. */
const ANSWER_KEYS: Readonly<Record<string, string>> = {
  a: 'approve',
  s: 'approve-session',
  d: 'deny',
};

function cards(): HTMLElement[] {
  return [...byId('inbox').querySelectorAll<HTMLElement>(':scope > [data-interaction]')];
}

function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLElement && target.isContentEditable)
  );
}

function press(card: HTMLElement, answer: string): boolean {
  const button = card.querySelector<HTMLButtonElement>(
    `.actions button[data-answer="${answer}"]:not(:disabled)`,
  );
  if (button === null) return false;
  button.click();
  return true;
}

function move(from: HTMLElement | undefined, step: number): void {
  const all = cards();
  if (all.length === 0) return;
  const at = from === undefined ? -1 : all.indexOf(from);
  const next = all[Math.min(all.length - 1, Math.max(0, at + step))];
  next?.focus();
}

function subjectOf(item: Pending): string {
  const r = item.request;
  if (r['kind'] === 'approval') {
    const subject = isRecord(r['subject']) ? r['subject'] : {};
    return `approval, ${str(subject['category'], 'other')}: ${str(subject['summary'])}`;
  }
  return `question: ${str(r['prompt'], 'a set of questions')}`;
}

function keysFor(item: Pending): string {
  if (item.request['kind'] !== 'approval') return 'Control+Enter j k';
  const modes = Array.isArray(item.request['allowedModes']) ? item.request['allowedModes'] : [];
  return `a ${modes.includes('session') ? 's ' : ''}d j k`;
}

function card(item: Pending, answered: () => void): HTMLElement {
  const node = interactionCard(item.sessionId, item, answered);
  node.dataset.owner = clean(item.owner);
  node.tabIndex = 0;
  node.setAttribute('role', 'group');
  node.setAttribute('aria-label', clean(subjectOf(item)).slice(0, 300));
  node.setAttribute('aria-keyshortcuts', keysFor(item));
  node.prepend(el('div', 'label', `${item.sessionId} · ${ownerText(item.owner)}`));
  return node;
}

/** Redraws the inbox; a card still pending is kept as it is (what was typed into it survives). */
export function drawInbox(pending: readonly Pending[], answered: () => void): void {
  const root = byId('inbox');
  const before = cards();
  const key = pending.map((item) => item.interactionId).join(',');
  const shown = before.map((c) => c.dataset.interaction ?? '').join(',');
  // unchanged: nothing is moved (moving a focused card would take the focus away)
  if (key === shown && (key !== '' || root.querySelector(':scope > p') !== null)) return;
  const focused = before.findIndex((c) => c.contains(document.activeElement));
  const kept = new Map(before.map((c) => [c.dataset.interaction ?? '', c]));
  const next = pending.map((item) => kept.get(item.interactionId) ?? card(item, answered));
  if (next.length === 0) next.push(el('p', 'muted', 'Nothing waits for an answer.'));
  root.replaceChildren(...next);
  // the focused card went (answered here or elsewhere): focus stays in the inbox, on the
  // card that took its place, so a person works down the list without reaching for a pointer
  if (focused >= 0 && !root.contains(document.activeElement)) {
    const all = cards();
    const target = all[Math.min(focused, all.length - 1)];
    if (target !== undefined) target.focus();
    else byId('inbox-heading').focus();
  }
}

function onCardKey(event: KeyboardEvent, cardNode: HTMLElement): void {
  const onCard = event.target === cardNode;
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    if (press(cardNode, 'answer')) event.preventDefault();
    return;
  }
  if (!onCard || event.altKey || event.ctrlKey || event.metaKey) return;
  const answer = ANSWER_KEYS[event.key];
  if (answer !== undefined) {
    if (press(cardNode, answer)) event.preventDefault();
  } else if (event.key === 'j' || event.key === 'ArrowDown') {
    move(cardNode, 1);
    event.preventDefault();
  } else if (event.key === 'k' || event.key === 'ArrowUp') {
    move(cardNode, -1);
    event.preventDefault();
  }
}

/** Installs the inbox's keys once. */
export function inboxKeys(): void {
  byId('inbox').addEventListener('keydown', (event) => {
    const target = event.target instanceof HTMLElement ? event.target : null;
    const cardNode = target?.closest<HTMLElement>('#inbox > [data-interaction]');
    if (cardNode != null) onCardKey(event, cardNode);
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'i' || event.altKey || event.ctrlKey || event.metaKey) return;
    if (typing(event.target) || byId('inbox').contains(event.target as Node | null)) return;
    const first = cards()[0];
    if (first === undefined) return;
    first.focus();
    event.preventDefault();
  });
}
