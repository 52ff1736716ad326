/**
 * The event stores side by side in one run, through the `EventStore` contract alone (no runtime
 * in front): memory, SQLite (synchronous=NORMAL and =FULL) and PostgreSQL (a throw-away local
 * server on a Unix socket, fsync and synchronous_commit on, data on the same disk as SQLite's).
 *
 * - append latency: one envelope per append, one session, one writer (what a quiet turn costs);
 * - events/s: batches of 32 envelopes (one event-loop tick of a busy turn), one writer;
 * - reads/s: those envelopes read back in pages of 256, each one verified by the store;
 * - PostgreSQL only: 8 stores (as 8 runtimes would, a pool each) writing 8 sessions at once — the
 *   commits/s the server holds — and the takeover time after an owner stops renewing its lease.
 *
 * `npm run bench:store`; RELVO_BENCH_PG_URL=<url> uses that server instead of a local one.
 * RELVO_BENCH_STORE_SQLITE_ONLY=1 measures the two SQLite kinds alone and prints their rows as
 * JSON (how bench/store-drivers.ts compares SQLite drivers, one child process per driver).
 */
import { WIRE_VERSION } from '@relvo-labs/agent-provider';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createMemoryEventStore,
  openPostgresEventStore,
  openSqliteEventStore,
  type EventEnvelope,
  type EventStore,
} from '@relvo-labs/agent-runtime';
import { startPgCluster, type PgCluster } from '../packages/agent-runtime/test/pg-cluster.js';
import { f1, f2, markdownTable, quantile } from './support/stats.js';

const BATCH = 32;
let schemas = 0;

function envelope(sessionId: string, sequence: number): EventEnvelope {
  const base = {
    eventId: `evt_${sequence}`,
    sessionId,
    sequence,
    occurredAt: new Date().toISOString(),
  };
  if (sequence === 1) {
    return {
      ...base,
      wireVersion: WIRE_VERSION,
      payload: {
        type: 'session.opened',
        defaultProfile: 'bench',
        workspace: { root: '/bench', ownership: 'borrowed' },
      },
    };
  }
  // a typical streamed delta: a few words of an answer
  const payload = { type: 'run.message_delta', text: 'the quick brown fox jumps ' } as const;
  return { ...base, wireVersion: WIRE_VERSION, runId: 'run_bench', payload };
}

interface Kind {
  readonly name: string;
  /** Appends timed for latency (fewer where each one waits for a disk flush). */
  readonly singles: number;
  readonly batches: number;
  open(): EventStore;
}

async function latency(store: EventStore, n: number): Promise<number[]> {
  const sessionId = `ses_lat_${String((schemas += 1))}`;
  await store.append([envelope(sessionId, 1)]);
  const ms: number[] = [];
  for (let s = 2; s < n + 2; s++) {
    const t0 = performance.now();
    await store.append([envelope(sessionId, s)]);
    ms.push(performance.now() - t0);
  }
  return ms;
}

const PAGE = 256;

/** Events/s reading back, from the first, each session `throughput` wrote: median of 7 passes. */
async function reads(store: EventStore, sessionIds: readonly string[]): Promise<number> {
  const rates: number[] = [];
  for (let pass = 0; pass < 7; pass++) {
    let n = 0;
    const t0 = performance.now();
    for (const sessionId of sessionIds) {
      for (let from = 1; ; from += PAGE) {
        const page = await store.read(sessionId, { fromSequence: from, limit: PAGE });
        n += page.length;
        if (page.length < PAGE) break;
      }
    }
    rates.push(n / ((performance.now() - t0) / 1000));
  }
  return quantile(rates, 0.5);
}

async function throughput(
  stores: readonly EventStore[],
  batches: number,
  written: string[] = [],
): Promise<number> {
  const t0 = performance.now();
  await Promise.all(
    stores.map(async (store, w) => {
      const sessionId = `ses_thr_${String((schemas += 1))}_${String(w)}`;
      written.push(sessionId);
      let next = 1;
      for (let b = 0; b < batches; b++) {
        const batch = Array.from({ length: BATCH }, () => envelope(sessionId, next++));
        await store.append(batch);
      }
    }),
  );
  return (stores.length * batches * BATCH) / ((performance.now() - t0) / 1000);
}

/** From the owner's last renewal until another store has the session and has appended. */
async function takeover(url: string, leaseMs: number): Promise<number> {
  const options = { connectionString: url, schema: 'bench_takeover', leaseMs };
  const owner = openPostgresEventStore(options); // never claimed: nothing renews its lease
  const next = openPostgresEventStore(options);
  const sessionId = `ses_tko_${String((schemas += 1))}`;
  await owner.append([envelope(sessionId, 1), envelope(sessionId, 2)]);
  const t0 = performance.now();
  while (!(await next.takeOver?.(sessionId))) await new Promise((r) => setTimeout(r, 5));
  await next.append([envelope(sessionId, 3)]);
  const ms = performance.now() - t0;
  await Promise.all([owner.close(), next.close()]);
  return ms;
}

function sqliteKinds(dir: string): Kind[] {
  return (['normal', 'full'] as const).map((synchronous) => ({
    name: `sqlite ${synchronous.toUpperCase()}`,
    singles: synchronous === 'full' ? 500 : 5_000,
    batches: synchronous === 'full' ? 300 : 2_000,
    open: () => openSqliteEventStore({ path: join(dir, `${synchronous}.db`), synchronous }),
  }));
}

async function measured(kind: Kind): Promise<Record<string, string>> {
  const store = kind.open();
  await store.claim();
  const ms = await latency(store, kind.singles);
  const written: string[] = [];
  const eps = await throughput([store], kind.batches, written);
  const rps = await reads(store, written);
  await store.close();
  return {
    store: kind.name,
    'append p50 ms': f2(quantile(ms, 0.5)),
    'append p99 ms': f2(quantile(ms, 0.99)),
    'appends/s (1 writer)': f1(1000 / (ms.reduce((a, b) => a + b, 0) / ms.length)),
    [`events/s (batches of ${String(BATCH)})`]: f1(eps),
    [`reads/s (pages of ${String(PAGE)})`]: f1(rps),
  };
}

async function sqliteOnly(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-bench-store-'));
  try {
    const rows: Record<string, string>[] = [];
    for (const kind of sqliteKinds(dir)) rows.push(await measured(kind));
    console.log(JSON.stringify(rows));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-bench-store-'));
  const given = process.env.RELVO_BENCH_PG_URL;
  const cluster: PgCluster | undefined = given === undefined ? await startPgCluster() : undefined;
  const url = given ?? (cluster as PgCluster).connectionString;
  const pgStore = (): EventStore =>
    openPostgresEventStore({ connectionString: url, schema: `bench_${String((schemas += 1))}` });
  const kinds: Kind[] = [
    { name: 'memory', singles: 20_000, batches: 2_000, open: createMemoryEventStore },
    ...sqliteKinds(dir),
    { name: 'postgres', singles: 500, batches: 300, open: pgStore },
  ];
  const rows: Record<string, string>[] = [];
  try {
    for (const kind of kinds) rows.push(await measured(kind));
    const writers = Array.from({ length: 8 }, pgStore);
    for (const w of writers) await w.claim();
    const fleetEps = await throughput(writers, 150);
    await Promise.all(writers.map((w) => w.close()));
    const takeovers: number[] = [];
    for (let i = 0; i < 5; i++) takeovers.push(await takeover(url, 1_000));

    console.log(markdownTable(rows));
    console.log('');
    console.log(
      markdownTable([
        {
          'postgres, 8 writers at once': `${f1(fleetEps)} events/s, ${f1(fleetEps / BATCH)} commits/s`,
          'takeover after lease lapse (leaseMs 1000), median of 5': `${f1(quantile(takeovers, 0.5))} ms`,
        },
      ]),
    );
  } finally {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await (process.env.RELVO_BENCH_STORE_SQLITE_ONLY === '1' ? sqliteOnly() : main());
