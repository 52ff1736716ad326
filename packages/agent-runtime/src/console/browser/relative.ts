/**
 * Times as people say them ("3 min ago"), kept current by a local timer that redraws the text
 * only — it never asks the server anything. The exact time stays in the element's `datetime`
 * and `title`.
 */
import { el } from './dom.js';

const STEPS: readonly (readonly [Intl.RelativeTimeFormatUnit, number])[] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' });

/** `iso` against `now` (ms), e.g. "5 min. ago"; under 10 s "just now"; unreadable "–". */
export function relativeTime(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return '–';
  let amount = (at - now) / 1000;
  if (Math.abs(amount) < 10) return 'just now';
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return '–';
}

/** A `<time>` element showing `iso` relative to now, redrawn by `refreshTimes`. */
export function timeElement(iso: string): HTMLElement {
  const node = el('time', 'rel', relativeTime(iso, Date.now()));
  node.setAttribute('datetime', iso);
  const at = new Date(iso);
  if (Number.isFinite(at.getTime())) node.title = at.toLocaleString();
  return node;
}

/** Redraws every relative time under `root`. */
export function refreshTimes(root: ParentNode, now = Date.now()): void {
  for (const node of root.querySelectorAll<HTMLTimeElement>('time.rel')) {
    node.textContent = relativeTime(node.dateTime, now);
  }
}
