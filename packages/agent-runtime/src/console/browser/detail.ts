/**
 * The whole subject of an approval, as text: what an answer grants is on the card, never only
 * its summary. Known keys of the codex adapter's details come first, in a fixed order (network
 * before paths), shaped for reading; every other key follows as its JSON. Nothing is dropped.
 */
import { el, isRecord, str } from './dom.js';

const ORDER = [
  'network',
  'command',
  'cwd',
  'paths',
  'changes',
  'changeCount',
  'server',
  'tool',
  'arguments',
  'message',
  'url',
  'urlWithheld',
  'outsideWorkspace',
  'reason',
];

function row(label: string, value: Node | string): HTMLElement {
  const line = el('div', 'detail-row');
  line.append(el('span', 'label', label));
  line.append(typeof value === 'string' ? el('span', 'text', value) : value);
  return line;
}

function block(label: string, text: string, cls: string): HTMLElement {
  const line = el('div', 'detail-row');
  line.append(el('div', 'label', label), el('pre', `text ${cls}`, text));
  return line;
}

function outside(item: Record<string, unknown>): string {
  return item['outsideWorkspace'] === true ? '  (OUTSIDE the workspace)' : '';
}

/** One line per entry: a permission's access and path, or a change's kind and path. */
function entries(label: string, list: unknown[], line: (item: unknown) => string): HTMLElement {
  const ul = el('ul', `detail-list ${label}`);
  for (const item of list) ul.append(el('li', 'text', line(item)));
  const wrap = el('div', 'detail-row');
  wrap.append(el('div', 'label', `${label} (${list.length})`), ul);
  return wrap;
}

function pathLine(item: unknown): string {
  if (!isRecord(item)) return JSON.stringify(item);
  return `${str(item['access'], '?')} ${str(item['path'], '?')}${outside(item)}`;
}

function changeLine(item: unknown): string {
  if (!isRecord(item)) return JSON.stringify(item);
  const moved = typeof item['movedTo'] === 'string' ? ` → ${item['movedTo']}` : '';
  return `${str(item['kind'], '?')} ${str(item['path'], '?')}${moved}${outside(item)}`;
}

function field(key: string, value: unknown): HTMLElement {
  if (key === 'network' && typeof value === 'boolean') {
    const line = row('network', value ? 'NETWORK ACCESS requested' : 'not requested');
    line.classList.add(value ? 'grant-network' : 'no-network');
    return line;
  }
  if (key === 'command' && typeof value === 'string') return block('command', value, 'command');
  if (key === 'arguments' && typeof value === 'string') return block(key, value, 'arguments');
  if (key === 'paths' && Array.isArray(value)) return entries('paths', value, pathLine);
  if (key === 'changes' && Array.isArray(value)) return entries('changes', value, changeLine);
  if (key === 'outsideWorkspace' && value === true) {
    return row('warning', 'reaches OUTSIDE the workspace');
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return row(key, String(value));
  }
  return block(key, JSON.stringify(value, null, 1), 'json');
}

/** Keys shown elsewhere on the card: `scopes` (what each mode grants) is the scope line. */
const SHOWN_ELSEWHERE = ['scopes'];

export function renderDetail(detail: Record<string, unknown>): HTMLElement {
  const box = el('div', 'detail');
  const keys = [
    ...ORDER.filter((k) => Object.hasOwn(detail, k)),
    ...Object.keys(detail).filter((k) => !ORDER.includes(k) && !SHOWN_ELSEWHERE.includes(k)),
  ];
  for (const key of keys) box.append(field(key, detail[key]));
  return box;
}

const SCOPE: Readonly<Record<string, string>> = {
  once: 'once',
  turn: 'for this turn',
  session: 'for the rest of the session',
  persistent: 'always, beyond this session',
};

/**
 * What each approve button grants: the detail's own `scopes` (mode → what codex grants, e.g.
 * `once` → `turn`) where it has them, else the mode itself.
 */
export function scopeLine(
  category: string,
  modes: readonly string[],
  detail: Record<string, unknown> | undefined,
): string {
  const scopes = detail !== undefined && isRecord(detail['scopes']) ? detail['scopes'] : {};
  const named = (mode: string): string => {
    const scope = typeof scopes[mode] === 'string' ? scopes[mode] : mode;
    if (scope === 'once' && category === 'command') return 'this command, once';
    return SCOPE[scope] ?? scope;
  };
  return `may be approved: ${modes.map(named).join(' · ')}`;
}
