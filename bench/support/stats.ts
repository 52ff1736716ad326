/** Small statistics and table helpers for the benchmarks. */

export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);

export const f1 = (n: number): string => n.toFixed(1);
export const f2 = (n: number): string => n.toFixed(2);
export const f3 = (n: number): string => n.toFixed(3);

/** A Markdown table (pipe syntax): readable in a terminal and pasted as is into docs/. */
export function markdownTable(rows: readonly Record<string, string | number>[]): string {
  const first = rows[0];
  if (first === undefined) return '(no rows)';
  const keys = Object.keys(first);
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [
    line(keys),
    line(keys.map(() => '---')),
    ...rows.map((r) => line(keys.map((k) => String(r[k] ?? '')))),
  ].join('\n');
}
