/**
 * The warm-pool panel: one row per prewarmed profile of the serving process's runtime, from the
 * stream's `pool` event (the shape of `GET /api/pool`). Read defensively — the page trusts no
 * field's type — and written as text after `neutralise`.
 */
import { clean, el, isRecord } from './dom.js';

export interface PoolRow {
  readonly profile: string;
  readonly target: number;
  readonly warm: number;
  readonly starting: number;
  readonly failed: number;
  readonly lastError: {
    readonly code: string;
    readonly reason: string;
    readonly at: string;
  } | null;
}

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The rows of a `pool` event's data; anything that is not a profile entry is left out. */
export function poolRows(data: unknown): PoolRow[] {
  const profiles = isRecord(data) && Array.isArray(data['profiles']) ? data['profiles'] : [];
  return profiles.filter(isRecord).map((p) => {
    const e = p['lastError'];
    return {
      profile: text(p['profile']),
      target: count(p['target']),
      warm: count(p['warm']),
      starting: count(p['starting']),
      failed: count(p['failed']),
      lastError: isRecord(e)
        ? { code: text(e['code']), reason: text(e['reason']), at: text(e['at']) }
        : null,
    };
  });
}

/** `warm`: all ready; `filling`: some starting; `short`: fewer than the target and none coming. */
export function poolHealth(row: PoolRow): 'warm' | 'filling' | 'short' {
  if (row.warm >= row.target) return 'warm';
  return row.starting > 0 ? 'filling' : 'short';
}

function poolRow(row: PoolRow): HTMLElement {
  const tr = el('tr', `pool-row pool-${poolHealth(row)}`);
  tr.dataset.profile = clean(row.profile);
  const last = row.lastError;
  const error =
    last === null
      ? '–'
      : `${last.code} · ${last.reason}${last.at === '' ? '' : ` · ${new Date(last.at).toLocaleTimeString()}`}`;
  tr.append(
    el('td', '', row.profile),
    el('td', 'num', `${String(row.warm)} / ${String(row.target)}`),
    el('td', 'num', row.starting),
    el('td', 'num', row.failed),
    el('td', 'pool-error', error),
  );
  return tr;
}

/** Draws the panel into `into`: a table, or a line saying no profile prewarms. */
export function drawPool(into: HTMLElement, data: unknown): void {
  const rows = poolRows(data);
  if (rows.length === 0) {
    into.replaceChildren(el('p', 'muted', 'No profile prewarms in this process.'));
    return;
  }
  const table = el('table', 'pool-table');
  const head = el('tr');
  for (const name of ['profile', 'warm / target', 'starting', 'failed', 'last failure']) {
    const th = el('th', '', name);
    th.setAttribute('scope', 'col');
    head.append(th);
  }
  const thead = el('thead');
  thead.append(head);
  const body = el('tbody');
  body.append(...rows.map(poolRow));
  table.append(thead, body);
  into.replaceChildren(table);
}
