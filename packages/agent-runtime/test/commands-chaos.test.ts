/**
 * Commands through the log, three runtime processes on one store (PostgreSQL, then one SQLite
 * file), round after round (`COMMANDS_CHAOS_ROUNDS`, default 2; `npm run test:commands-chaos`
 * runs 50). Each round: one process opens a session whose run waits for an approval; another
 * steers it (routed to the live owner); the owner is stopped (SIGSTOP; on SQLite a stall between
 * two transactions), the two others queue an answer and a steer, and the owner is killed
 * (SIGKILL) with both queued. One of the two takes
 * the session over once its lease lapses and settles both. Every command settles exactly once:
 * one settlement per caller, none left unsettled in the table, and the log holds an effect for
 * a command exactly when its settlement says it took effect.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  openPostgresEventStore,
  openSqliteEventStore,
  type EventEnvelope,
  type EventStore,
} from '@relvo-labs/agent-runtime';
import { testRecordKey } from './pg-cluster.js';
import { usePgCluster } from './pg-suite.js';
import { RuntimeChild } from './runtime-child.js';
import { onCleanup, tempDir } from './support.js';

const CHILD = fileURLToPath(new URL('./fixtures/command-child.ts', import.meta.url));
const ROUNDS = Number(process.env.COMMANDS_CHAOS_ROUNDS ?? '2');
const LEASE_MS = 800;
const server = usePgCluster();

/** Outcomes seen, by command kind, for the report in docs/reliability.md. */
type Tally = Map<string, number>;

class Kid extends RuntimeChild {
  #seen = 0;
  /** Bounded: the next line from where the last one was taken that starts with `prefix`. */
  async next(prefix: string, label: string): Promise<string> {
    const from = this.#seen;
    const line = await this.line(
      (l) => l.startsWith(prefix) && this.lines.indexOf(l, from) >= from,
      `${label} (last lines: ${this.lines.slice(-4).join(' | ')})`,
      60_000,
    );
    this.#seen = this.lines.indexOf(line, from) + 1;
    return line;
  }
}

function settledLines(kid: Kid, tag: string): string[] {
  return kid.lines.filter((l) => l.startsWith(`SETTLED ${tag} `));
}

async function settlement(kid: Kid, tag: string): Promise<string> {
  const line = await kid.line((l) => l.startsWith(`SETTLED ${tag} `), `settlement of ${tag}`);
  return line.split(' ')[2] ?? '';
}

async function readAll(store: EventStore, sessionId: string): Promise<EventEnvelope[]> {
  const out: EventEnvelope[] = [];
  for (;;) {
    const page = await store.read(sessionId, { fromSequence: out.length + 1, limit: 500 });
    out.push(...page);
    if (page.length < 500) return out;
  }
}

/** Bounded: until the table holds `count` pending commands of the session. */
async function untilQueued(store: EventStore, sessionId: string, count: number): Promise<void> {
  const table = store.commands;
  if (table === undefined) throw new Error('the store has no command table');
  for (const deadline = Date.now() + 30_000; ;) {
    const open = await table.unsettled(sessionId, 10);
    if (open.filter((c) => c.state === 'pending').length >= count) return;
    if (Date.now() > deadline) throw new Error(`${String(count)} commands were not queued`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function count(tally: Tally, key: string): void {
  tally.set(key, (tally.get(key) ?? 0) + 1);
}

/**
 * How an owner is stopped: SIGSTOP (PostgreSQL), or a stall between two transactions (SQLite,
 * whose writer stopped inside a transaction would hold the file's write lock for everyone: a
 * limit of SQLite, ADR-0053).
 */
type Stall = 'signal' | 'between-transactions';

async function chaos(storeArgs: string[], inspector: EventStore, stall: Stall): Promise<Tally> {
  onCleanup(() => inspector.close());
  const tally: Tally = new Map();
  const spawnKid = async (): Promise<Kid> => {
    const kid = new Kid(CHILD, storeArgs);
    await kid.next('READY', 'a child runtime');
    return kid;
  };
  const kids = await Promise.all([spawnKid(), spawnKid(), spawnKid()]);
  for (let round = 0; round < ROUNDS; round += 1) {
    const at = round % 3;
    const owner = kids[at] as Kid;
    const [a, b] = [kids[(at + 1) % 3] as Kid, kids[(at + 2) % 3] as Kid];
    owner.send(`open ${tempDir()}`);
    const [, sessionId = '', interactionId = ''] = (
      await owner.next('PENDING ', `round ${String(round)}: the pending approval`)
    ).split(' ');

    // routed to a live owner: carried out there
    a.send(`steer r${String(round)}live ${sessionId}`);
    expect(await settlement(a, `r${String(round)}live`)).toBe('ok');

    // queued while the owner is stopped, then the owner dies
    if (stall === 'signal') owner.signal('SIGSTOP');
    else {
      owner.send('stall');
      await owner.next('STALLED', 'the stalled owner');
    }
    a.send(`respond r${String(round)}a ${sessionId} ${interactionId}`);
    b.send(`steer r${String(round)}b ${sessionId}`);
    await untilQueued(inspector, sessionId, 2);
    owner.signal('SIGKILL');
    await owner.exited;
    const answered = await settlement(a, `r${String(round)}a`);
    const steered = await settlement(b, `r${String(round)}b`);
    count(tally, `respond:${answered}`);
    count(tally, `steer:${steered}`);

    // exactly once: one settlement each, nothing left in the table, effects match settlements
    expect(settledLines(a, `r${String(round)}a`)).toHaveLength(1);
    expect(settledLines(b, `r${String(round)}b`)).toHaveLength(1);
    expect(await inspector.commands?.unsettled(sessionId, 10)).toEqual([]);
    const log = await readAll(inspector, sessionId);
    const answers = log.filter((e) => e.payload.type === 'interaction.answered');
    const steers = log.filter((e) => e.payload.type === 'run.steered');
    expect(answers).toHaveLength(answered === 'ok' ? 1 : 0);
    expect(steers).toHaveLength(1 + (steered === 'ok' ? 1 : 0));
    expect(log.map((e) => e.sequence)).toEqual(log.map((_, i) => i + 1));

    // the taker-over closes it, routed from either side; a new process replaces the dead one
    a.send(`close r${String(round)}c ${sessionId}`);
    expect(await settlement(a, `r${String(round)}c`)).toBe('ok');
    kids[at] = await spawnKid();
  }
  for (const kid of kids) kid.send('stop');
  await Promise.all(kids.map((k) => k.next('STOPPED', 'a child stopping')));
  await Promise.all(kids.map((k) => k.exited));
  return tally;
}

function report(store: string, tally: Tally): void {
  const parts = [...tally].map(([k, v]) => `${k}=${String(v)}`).join(' ');
  process.stdout.write(`commands chaos (${store}, ${String(ROUNDS)} rounds): ${parts}\n`);
}

describe('commands through the log: three processes, owners killed with commands queued', () => {
  it.skipIf(server.skip !== undefined)(
    'PostgreSQL: each command settles exactly once',
    async () => {
      const url = server.cluster().connectionString;
      const schema = 'commands_chaos';
      const inspector = openPostgresEventStore({
        connectionString: url,
        schema,
        recordKey: testRecordKey(schema),
      });
      const tally = await chaos(['pg', url, schema, String(LEASE_MS)], inspector, 'signal');
      report('postgres', tally);
      expect([...tally.values()].reduce((x, y) => x + y, 0)).toBe(2 * ROUNDS);
    },
    60_000 + ROUNDS * 20_000,
  );

  it(
    'SQLite: each command settles exactly once',
    async () => {
      const path = join(tempDir(), 'log.db');
      const inspector = openSqliteEventStore({ path, leaseMs: LEASE_MS });
      const tally = await chaos(
        ['sqlite', path, String(LEASE_MS)],
        inspector,
        'between-transactions',
      );
      report('sqlite', tally);
      expect([...tally.values()].reduce((x, y) => x + y, 0)).toBe(2 * ROUNDS);
    },
    60_000 + ROUNDS * 20_000,
  );
});
