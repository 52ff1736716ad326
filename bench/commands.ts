/**
 * What a routed command adds (ADR-0052), side by side in one run: runtime A owns a session
 * whose run asks for an approval; the answer comes from A itself (local), or from runtime B on
 * the same store (routed through the command table to A). Both wait until the answer is durable
 * in A's log and carried out. PostgreSQL (a throw-away local server, LISTEN/NOTIFY wake-ups) and
 * SQLite (one file, polled wake-ups), each runtime with its own store as two processes would.
 *
 * `npm run bench -- commands`; RELVO_BENCH_PG_URL=<url> uses that server instead of a local one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createAgentRuntime,
  openPostgresEventStore,
  openSqliteEventStore,
  type AgentRuntime,
  type EventStore,
} from '@relvo-labs/agent-runtime';
import { createManualProvider } from '../packages/agent-runtime/test/manual-provider.js';
import { startPgCluster, testRecordKey } from '../packages/agent-runtime/test/pg-cluster.js';
import { f1, f2, markdownTable, quantile } from './support/stats.js';

const CONFIG = { defaultProfile: 'm', profiles: { m: { provider: 'manual' } } };

interface Pair {
  readonly name: string;
  open(): EventStore;
}

async function measure(pair: Pair, rounds: number): Promise<{ local: number[]; routed: number[] }> {
  const manual = createManualProvider();
  const a = await createAgentRuntime({
    providers: { manual: () => manual.provider },
    config: CONFIG,
    store: pair.open(),
  });
  const b: AgentRuntime = await createAgentRuntime({
    providers: { manual: () => createManualProvider().provider },
    config: CONFIG,
    store: pair.open(),
  });
  const dir = mkdtempSync(join(tmpdir(), 'relvo-bench-cmd-'));
  const local: number[] = [];
  const routed: number[] = [];
  try {
    const session = await a.openSession({ workspace: dir });
    await session.submitTurn({ input: 'ask' });
    while (manual.sessions[0]?.runs[0] === undefined) await new Promise((r) => setImmediate(r));
    const run = manual.sessions[0].runs[0];
    for (let i = 0; i < rounds * 2; i += 1) {
      const before = session.pendingInteractions().length;
      run.sink.emit({
        payload: {
          type: 'interaction.requested',
          providerRef: `approve-${String(i)}`,
          request: {
            kind: 'approval',
            subject: { category: 'command', summary: 'bench' },
            allowedModes: ['once'],
            riskHint: 'low',
          },
        },
      });
      while (session.pendingInteractions().length === before) {
        await new Promise((r) => setImmediate(r));
      }
      const pending = session.pendingInteractions().at(-1);
      if (pending === undefined) throw new Error('no pending interaction');
      // durable before either side answers it
      const known = async (): Promise<boolean> =>
        (await b.pendingInteractions(session.id)).some(
          (p) => p.interactionId === pending.interactionId,
        );
      while (!(await known())) await new Promise((r) => setTimeout(r, 1));
      const via = i % 2 === 0 ? a : b;
      const t0 = performance.now();
      await via.respond(session.id, pending.interactionId, {
        kind: 'approval',
        decision: 'approved',
        mode: 'once',
      });
      (via === a ? local : routed).push(performance.now() - t0);
    }
  } finally {
    await b.shutdown().catch(() => undefined);
    await a.shutdown().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
  return { local, routed };
}

export async function commandRows(rounds: number): Promise<Record<string, string>[]> {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-bench-cmdlog-'));
  const given = process.env.RELVO_BENCH_PG_URL;
  const cluster = given === undefined ? await startPgCluster() : undefined;
  const url = given ?? cluster?.connectionString ?? '';
  const schema = `bench_commands_${String(process.pid)}`;
  const pairs: Pair[] = [
    {
      name: 'postgres',
      open: () =>
        openPostgresEventStore({ connectionString: url, schema, recordKey: testRecordKey(schema) }),
    },
    { name: 'sqlite', open: () => openSqliteEventStore({ path: join(dir, 'log.db') }) },
  ];
  const rows: Record<string, string>[] = [];
  try {
    for (const pair of pairs) {
      const { local, routed } = await measure(pair, rounds);
      const p50 = quantile(local, 0.5);
      rows.push({
        store: pair.name,
        'local answer p50 / p95 ms': `${f2(p50)} / ${f2(quantile(local, 0.95))}`,
        'routed answer p50 / p95 ms': `${f2(quantile(routed, 0.5))} / ${f2(quantile(routed, 0.95))}`,
        'routed ÷ local (p50)': f1(quantile(routed, 0.5) / p50),
        answers: String(local.length + routed.length),
      });
    }
  } finally {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

export async function commandsSection(rounds: number): Promise<string> {
  return markdownTable(await commandRows(rounds));
}
