/**
 * The runtime's bookkeeping in the log (state changes, run starts, recovery records, answers
 * recorded before delivery, a run that simply succeeded): kept in the timeline as one short
 * line each, marked `internal`, and shown only while the details toggle is on. A recovery
 * record's content (thread ids, digests) is never drawn: only that one was recorded, and for
 * which profile.
 */
import { el, isRecord, str } from './dom.js';

const ALWAYS = new Set([
  'session.state_changed',
  'turn.state_changed',
  'run.state_changed',
  'run.started',
  'session.recovery_recorded',
  'interaction.answered',
]);

export function isInternal(p: Record<string, unknown>): boolean {
  const type = str(p['type']);
  if (ALWAYS.has(type)) return true;
  if (type === 'run.finished')
    return isRecord(p['termination']) && p['termination']['outcome'] === 'succeeded';
  return type === 'diagnostic' && p['level'] === 'debug';
}

function what(p: Record<string, unknown>): string {
  switch (p['type']) {
    case 'session.state_changed':
    case 'turn.state_changed':
    case 'run.state_changed':
      return `${str(p['from'])} → ${str(p['to'])}`;
    case 'run.started':
      return `attempt ${str(p['attempt'])} on ${str(p['profile'])} · ${str(p['providerId'])}`;
    case 'session.recovery_recorded':
      return `for profile ${str(p['profile'])}${typeof p['mac'] === 'string' ? ', signed' : ''}`;
    case 'interaction.answered':
      return 'an answer, recorded before the agent got it';
    case 'run.finished':
      return 'succeeded';
    default:
      return str(p['message']);
  }
}

export function internalEntry(p: Record<string, unknown>): HTMLElement {
  const node = el('div', 'entry internal');
  node.append(el('span', 'label', str(p['type'])), el('span', 'mono', what(p)));
  return node;
}

/**
 * The toggle above a timeline: pressed, the internal lines show. Its state is the timeline's
 * class, so entries drawn later follow it without being touched.
 */
export function internalToggle(timeline: HTMLElement): HTMLButtonElement {
  const button = el('button', 'internal-toggle', 'Show details');
  button.type = 'button';
  button.setAttribute('aria-pressed', 'false');
  button.setAttribute('aria-controls', timeline.id);
  button.addEventListener('click', () => {
    const on = timeline.classList.toggle('show-internal');
    button.setAttribute('aria-pressed', String(on));
    button.textContent = on ? 'Hide details' : 'Show details';
  });
  return button;
}
