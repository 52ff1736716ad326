/**
 * The SQLite event store on its two possible drivers, side by side in one run: better-sqlite3
 * (the default) and Node's built-in `node:sqlite` (through the stand-in in bench/node-sqlite,
 * which gives the unchanged store better-sqlite3's API). Each round runs bench/store.ts's SQLite
 * kinds once per driver in a child process of its own, the drivers alternating, and the table
 * gives each driver's median over the rounds and node:sqlite ÷ better-sqlite3.
 *
 * Needs a Node with `node:sqlite` that strips types itself (24+):
 *   node --import tsx bench/store-drivers.ts [rounds]
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { f2, markdownTable, quantile } from './support/stats.js';

const STORE_BENCH = fileURLToPath(new URL('./store.ts', import.meta.url));
const NODE_SQLITE = fileURLToPath(new URL('./node-sqlite/register.ts', import.meta.url));
const DRIVERS = ['better-sqlite3', 'node:sqlite'] as const;
type Driver = (typeof DRIVERS)[number];

function once(driver: Driver): Record<string, string>[] {
  const hook = driver === 'node:sqlite' ? ['--import', NODE_SQLITE] : [];
  const out = execFileSync(
    process.execPath,
    ['--conditions=relvo-source', '--import', 'tsx', ...hook, STORE_BENCH],
    {
      env: { ...process.env, RELVO_BENCH_STORE_SQLITE_ONLY: '1' },
      encoding: 'utf8',
      timeout: 600_000,
    },
  );
  return JSON.parse(out.trim().split('\n').at(-1) ?? '[]') as Record<string, string>[];
}

const rounds = Number(process.argv[2] ?? '3');
const seen = new Map<string, number[]>();
for (let round = 0; round < rounds; round++) {
  for (const driver of round % 2 === 0 ? DRIVERS : [...DRIVERS].reverse()) {
    for (const row of once(driver)) {
      for (const [metric, value] of Object.entries(row)) {
        if (metric === 'store') continue;
        const key = `${driver}\u0000${row['store'] ?? ''}\u0000${metric}`;
        seen.set(key, [...(seen.get(key) ?? []), Number(value)]);
      }
    }
  }
}
const median = (key: string): number => quantile(seen.get(key) ?? [], 0.5);
const rows: Record<string, string>[] = [];
for (const key of seen.keys()) {
  const [driver, store, metric] = key.split('\u0000') as [Driver, string, string];
  if (driver !== 'better-sqlite3') continue;
  const a = median(key);
  const b = median(['node:sqlite', store, metric].join('\u0000'));
  rows.push({
    store,
    metric,
    'better-sqlite3': f2(a),
    'node:sqlite': f2(b),
    'node:sqlite ÷ better-sqlite3': f2(b / a),
  });
}
console.log(`Node ${process.version}, ${String(rounds)} rounds, drivers alternating`);
console.log(markdownTable(rows));
