/**
 * Answer forms: a question, or every question of a set with its own input (choices as radio
 * buttons or checkboxes, free text where offered, sensitive text masked). The answer is built
 * as the API's schema wants it; an unanswered question stops the send, naming its key.
 */
import { el, isRecord, str } from './dom.js';

interface Choice {
  readonly value: string;
  readonly label: string;
  readonly description?: string;
}

interface Question {
  readonly key: string;
  readonly prompt: string;
  readonly header?: string;
  readonly choices?: readonly Choice[];
  readonly multiSelect?: boolean;
  readonly allowFreeText?: boolean;
  readonly sensitive?: boolean;
}

export type Built =
  { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly why: string };

function choicesOf(value: unknown): Choice[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((c) => ({
    value: String(c['value']),
    label: String(c['label']),
    ...(typeof c['description'] === 'string' ? { description: c['description'] } : {}),
  }));
}

function questionOf(value: Record<string, unknown>, key: string): Question {
  const choices = choicesOf(value['choices']);
  return {
    key,
    prompt: str(value['prompt']),
    ...(typeof value['header'] === 'string' ? { header: value['header'] } : {}),
    ...(choices.length > 0 ? { choices } : {}),
    multiSelect: value['multiSelect'] === true,
    allowFreeText: value['allowFreeText'] === true,
    sensitive: value['sensitive'] === true,
  };
}

let formCount = 0;

/** One question's inputs; `read` gives its answer (selected values or text), or nothing. */
function questionInputs(
  q: Question,
  freeText: boolean,
): { node: HTMLElement; read: () => { values: string[] } | { text: string } | undefined } {
  const box = el('fieldset', 'question');
  box.dataset.key = q.key;
  if (q.header !== undefined) box.append(el('legend', 'label', q.header));
  if (q.prompt !== '') box.append(el('div', 'text prompt', q.prompt));
  const group = `q${String((formCount += 1))}`;
  const boxes: HTMLInputElement[] = [];
  for (const choice of q.choices ?? []) {
    const label = el('label', 'choice');
    const input = el('input');
    input.type = q.multiSelect === true ? 'checkbox' : 'radio';
    input.name = group;
    input.value = choice.value;
    boxes.push(input);
    label.append(input, el('span', 'text', choice.label));
    if (choice.description !== undefined)
      label.append(el('span', 'muted', ` ${choice.description}`));
    box.append(label);
  }
  let text: HTMLInputElement | undefined;
  if (boxes.length === 0 || freeText) {
    text = el('input', 'answer-input');
    text.type = q.sensitive === true ? 'password' : 'text';
    text.autocomplete = 'off';
    box.append(text);
  }
  return {
    node: box,
    read() {
      const values = boxes.filter((b) => b.checked).map((b) => b.value);
      if (values.length > 0) return { values };
      const typed = text?.value ?? '';
      return typed === '' ? undefined : { text: typed };
    },
  };
}

/** The inputs of a question or a question set, and how to build the answer from them. */
export function answerForm(request: Record<string, unknown>): {
  node: HTMLElement;
  build: () => Built;
} {
  const form = el('div', 'answer-form');
  if (request['kind'] === 'question') {
    const q = questionOf(request, 'answer');
    const inputs = questionInputs({ ...q, prompt: '' }, false);
    form.append(inputs.node);
    return {
      node: form,
      build() {
        const got = inputs.read();
        if (got === undefined) return { ok: false, why: 'type or choose an answer' };
        const answer =
          'values' in got
            ? q.multiSelect === true
              ? got.values
              : (got.values[0] ?? '')
            : got.text;
        return { ok: true, body: { kind: 'question', answer } };
      },
    };
  }
  const list = Array.isArray(request['questions']) ? request['questions'].filter(isRecord) : [];
  const all = list.map((raw) => {
    const q = questionOf(raw, String(raw['key']));
    const inputs = questionInputs(q, q.allowFreeText === true);
    form.append(inputs.node);
    return { key: q.key, read: inputs.read };
  });
  return {
    node: form,
    build() {
      const answers: Record<string, unknown> = {};
      for (const { key, read } of all) {
        const got = read();
        if (got === undefined) return { ok: false, why: `answer ${key}` };
        answers[key] =
          'values' in got
            ? { type: 'selection', values: got.values }
            : { type: 'text', text: got.text };
      }
      return { ok: true, body: { kind: 'question_set', answers } };
    },
  };
}
