/**
 * What a provider publishes as `run.extension` (codex: plans, reasoning summaries, structured
 * output; diffs are in changes.ts): a plan as a checklist whose steps change state in place, a
 * reasoning summary collapsed, structured output pretty-printed. A kind this page does not know
 * is shown as its JSON, as text.
 */
import { clean, el, isRecord, str } from './dom.js';
import { renderMarkdown } from './markdown.js';

const STEP_STATE: Readonly<Record<string, string>> = {
  completed: 'done',
  in_progress: 'in progress',
  pending: 'to do',
};

/** Redraws the plan's steps, reusing each step's row so its state changes where it is. */
export function drawPlan(node: HTMLElement, data: Record<string, unknown>): void {
  const steps = Array.isArray(data['steps']) ? data['steps'].filter(isRecord) : [];
  let list = node.querySelector(':scope > ul.plan-steps');
  if (!(list instanceof HTMLUListElement)) {
    list = el('ul', 'plan-steps');
    node.replaceChildren(el('span', 'label plan-head'), el('div', 'plan-explanation text'), list);
  }
  const explanation = node.querySelector(':scope > .plan-explanation');
  if (explanation !== null) explanation.textContent = clean(str(data['explanation']));
  const done = steps.filter((s) => s['status'] === 'completed').length;
  // in words, not only in checkboxes: a screen reader reads the head first
  const head = node.querySelector(':scope > .plan-head');
  if (head !== null) head.textContent = `plan · ${String(done)} of ${String(steps.length)} done`;
  steps.forEach((step, i) => {
    let row = list.children.item(i);
    if (!(row instanceof HTMLLIElement)) {
      row = el('li', 'plan-step');
      const box = el('input');
      box.type = 'checkbox';
      box.disabled = true;
      const label = el('label');
      label.append(box, el('span', 'step-text'), el('span', 'step-state'));
      row.append(label);
      list.append(row);
    }
    const status = str(step['status'], 'pending');
    (row as HTMLElement).dataset.status = status;
    const box = row.querySelector('input');
    if (box !== null) {
      box.checked = status === 'completed';
      box.indeterminate = status === 'in_progress';
    }
    const text = row.querySelector('.step-text');
    if (text !== null) text.textContent = clean(str(step['step']));
    const state = row.querySelector('.step-state');
    if (state !== null) state.textContent = ` (${STEP_STATE[status] ?? status})`;
  });
  while (list.children.length > steps.length) list.lastElementChild?.remove();
  if (data['truncated'] === true && node.querySelector('.plan-more') === null)
    node.append(el('div', 'muted plan-more', 'more steps than are shown'));
}

/** A reasoning summary, collapsed: its parts in order, each rendered as markdown. */
export function drawReasoning(node: HTMLElement, parts: readonly string[]): void {
  let box = node.querySelector(':scope > details');
  if (!(box instanceof HTMLDetailsElement)) {
    box = el('details', 'reasoning-details');
    box.append(el('summary', '', 'reasoning summary'), el('div', 'md reasoning-text'));
    node.replaceChildren(box);
  }
  const text = box.querySelector('.reasoning-text');
  if (text === null) return;
  const rendered = document.createDocumentFragment();
  for (const part of parts) if (part !== '') rendered.append(renderMarkdown(part));
  text.replaceChildren(rendered);
}

/** The answer of a structured run: its value as indented JSON. */
export function structuredEntry(data: Record<string, unknown>): HTMLElement {
  const node = el('div', 'entry structured');
  node.append(
    el('span', 'label', 'structured output'),
    el('pre', 'json', JSON.stringify(data['value'], null, 2)),
  );
  return node;
}

export function unknownExtension(payload: Record<string, unknown>): HTMLElement {
  const node = el('div', 'entry generic');
  node.append(
    el('span', 'label', `${str(payload['namespace'])} · ${str(payload['kind'])}`),
    el('pre', 'json', JSON.stringify(payload['data'], null, 2)),
  );
  return node;
}
