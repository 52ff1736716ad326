/**
 * What a settled card says under its outcome: the answer the log holds and who settled it. The
 * log does not say which host answered (this page, another tab, the CLI or a script): an answer
 * is "from a host", recorded (`interaction.answered`) before the agent got it; cancelled,
 * expired and withdrawn say who ended the question instead. A sensitive question's answer is
 * never shown.
 */
import { el, isRecord, str } from './dom.js';

const APPROVED_MODE: Readonly<Record<string, string>> = {
  once: 'once',
  session: 'for the session',
  persistent: 'always',
};

const NOT_ANSWERED: Readonly<Record<string, string>> = {
  cancelled: 'cancelled by the runtime (the run ended or the session was taken over)',
  expired: 'expired: nobody answered in time',
  withdrawn: 'withdrawn by the agent',
};

function sensitiveKeys(request: Record<string, unknown>): Set<string> {
  const list = Array.isArray(request['questions']) ? request['questions'].filter(isRecord) : [];
  return new Set(list.filter((q) => q['sensitive'] === true).map((q) => str(q['key'])));
}

function answerValue(answer: unknown): string {
  if (!isRecord(answer)) return str(answer);
  if (answer['type'] === 'text') return str(answer['text']);
  return Array.isArray(answer['values']) ? answer['values'].map(String).join(', ') : str(answer);
}

/** The answer's lines: a decision, a question's answer, or one line per question of a set. */
export function answerLines(
  request: Record<string, unknown>,
  response: Record<string, unknown>,
): string[] {
  if (response['kind'] === 'approval') {
    const mode = APPROVED_MODE[str(response['mode'])];
    const reason = typeof response['reason'] === 'string' ? ` — ${response['reason']}` : '';
    return [`${str(response['decision'])}${mode === undefined ? '' : ` ${mode}`}${reason}`];
  }
  if (response['kind'] === 'question') {
    const a = response['answer'];
    return [`answer: ${Array.isArray(a) ? a.map(String).join(', ') : str(a)}`];
  }
  const hidden = sensitiveKeys(request);
  const answers = isRecord(response['answers']) ? response['answers'] : {};
  return Object.entries(answers).map(
    ([key, a]) => `${key}: ${hidden.has(key) ? '(sensitive, not shown)' : answerValue(a)}`,
  );
}

function timeOf(at: unknown): string {
  const d = typeof at === 'string' ? new Date(at) : undefined;
  return d === undefined || Number.isNaN(d.getTime())
    ? ''
    : ` at ${d.toISOString().slice(11, 19)} UTC`;
}

/** Adds (or replaces) the card's answer block from the settlement the log holds. */
export function showAnswer(
  card: HTMLElement,
  request: Record<string, unknown>,
  settlement: Record<string, unknown>,
  recordedAnswer: boolean,
): void {
  card.querySelector(':scope > .answer')?.remove();
  const box = el('div', 'answer');
  const outcome = str(settlement['outcome']);
  const response = isRecord(settlement['response']) ? settlement['response'] : undefined;
  if (outcome === 'responded' && response !== undefined) {
    for (const line of answerLines(request, response))
      box.append(el('div', 'answer-line text', line));
    const who = recordedAnswer
      ? "by a host's answer, recorded before the agent got it"
      : 'by a host';
    box.append(el('div', 'answered-by muted', `${who}${timeOf(settlement['settledAt'])}`));
  } else {
    box.append(
      el(
        'div',
        'answered-by muted',
        `${NOT_ANSWERED[outcome] ?? outcome}${timeOf(settlement['settledAt'])}`,
      ),
    );
  }
  const note = card.querySelector(':scope > .note');
  if (note !== null) note.before(box);
  else card.append(box);
}
