/**
 * Damage done to a stored log from outside the runtime, as a bad disk, an operator or another
 * program would: one envelope's row deleted, made not JSON, or given a payload of the wrong
 * shape. Each returns the sequence a verified read must name.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createScriptedProvider, type ScriptedProvider } from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  openSqliteEventStore,
  type AgentRuntime,
  type EventStore,
} from '@relvo-labs/agent-runtime';
import { pgQuery } from './pg-cluster.js';
import { onCleanup, tempDir, TWO_SCRIPTED_PROFILES } from './support.js';

export const DAMAGES = ['missing', 'unparsable', 'invalid'] as const;
export type Damage = (typeof DAMAGES)[number];

/** A message delta whose text is a number: JSON, but not an envelope of the schema. */
const WRONG_SHAPE = { type: 'run.message_delta', text: 42 };

interface Row {
  readonly rowid: number;
  readonly first_sequence: number;
  readonly envelopes: string;
}

/** Where in the log: a row in the middle, or the last one (the end of the history is lost). */
export type Place = 'middle' | 'end';

/** Edits one of the SQLite file's rows from outside any store, as damage would. */
export function damageSqlite(
  path: string,
  sessionId: string,
  damage: Damage,
  place: Place = 'middle',
): number {
  const db = new Database(path);
  try {
    const rows = db
      .prepare(
        'SELECT rowid, first_sequence, envelopes FROM event_rows WHERE session_id = ? ORDER BY first_sequence',
      )
      .all(sessionId) as Row[];
    if (rows.length < 3) throw new Error(`want 3 rows or more, the session has ${rows.length}`);
    const row = rows[place === 'end' ? rows.length - 1 : Math.floor(rows.length / 2)] as Row;
    if (damage === 'missing') {
      db.prepare('DELETE FROM event_rows WHERE rowid = ?').run(row.rowid);
      return row.first_sequence;
    }
    if (damage === 'unparsable') {
      const cut = row.envelopes.slice(0, Math.floor(row.envelopes.length / 2));
      db.prepare('UPDATE event_rows SET envelopes = ? WHERE rowid = ?').run(cut, row.rowid);
      return row.first_sequence;
    }
    const packed = JSON.parse(row.envelopes) as unknown[][];
    const at = Math.floor(packed.length / 2);
    (packed[at] as unknown[])[3] = WRONG_SHAPE;
    db.prepare('UPDATE event_rows SET envelopes = ? WHERE rowid = ?').run(
      JSON.stringify(packed),
      row.rowid,
    );
    return row.first_sequence + at;
  } finally {
    db.close();
  }
}

/** Edits the row of `sequence` in the schema's events table on the server at `url`. */
export async function damagePg(
  url: string,
  schema: string,
  sessionId: string,
  sequence: number,
  damage: Damage,
): Promise<number> {
  const where = `session_id = $1 AND sequence = $2`;
  const changed =
    damage === 'missing'
      ? await pgQuery(url, `DELETE FROM ${schema}.events WHERE ${where} RETURNING 1`, [
          sessionId,
          sequence,
        ])
      : await pgQuery(url, `UPDATE ${schema}.events SET payload = $3 WHERE ${where} RETURNING 1`, [
          sessionId,
          sequence,
          damage === 'unparsable' ? '{"type": "run.mess' : JSON.stringify(WRONG_SHAPE),
        ]);
  if (changed.length !== 1) throw new Error('no row was damaged');
  return sequence;
}

/** Where a damaged log lives: stores opened on it, and the way to damage it between two runtimes. */
export interface Backing {
  open(): EventStore;
  damage(sessionId: string, lastSequence: number, damage: Damage, place: Place): Promise<number>;
}

export function sqliteBacking(): Backing {
  const path = join(tempDir(), 'events.db');
  return {
    open: () => openSqliteEventStore({ path }),
    damage: (sessionId, _last, damage, place) =>
      Promise.resolve(damageSqlite(path, sessionId, damage, place)),
  };
}

/** Deltas in the long turn: many store pages, and several SQLite rows, before the damage. */
export const DELTAS = 4_000;

export interface DamagedRuntime {
  readonly runtime: AgentRuntime;
  readonly scripted: ScriptedProvider;
  /** The closed session whose log is damaged. */
  readonly sessionId: string;
  /** The sequence a verified read names. */
  readonly sequence: number;
}

async function runtimeOn(store: EventStore): Promise<[AgentRuntime, ScriptedProvider]> {
  const long = Array.from({ length: DELTAS }, (_, i) => ({
    type: 'delta' as const,
    text: `d${i} `,
  }));
  const scripted = createScriptedProvider({ scripts: { long: [...long, { type: 'succeed' }] } });
  const runtime = await createAgentRuntime({
    providers: { scripted: () => scripted.provider },
    config: TWO_SCRIPTED_PROFILES,
    store,
  });
  onCleanup(() => runtime.shutdown().catch(() => undefined));
  return [runtime, scripted];
}

/** A first runtime writes a long closed session and stops; the log is damaged; a second opens it. */
export async function damagedRuntime(
  backing: Backing,
  damage: Damage,
  place: Place = 'middle',
): Promise<DamagedRuntime> {
  const [first, firstScripted] = await runtimeOn(backing.open());
  const session = await first.openSession({ workspace: tempDir() });
  const turn = await session.submitTurn({ input: 'long' });
  firstScripted.controller.drain();
  await turn.done;
  await session.close();
  const last = (await first.store.getSession(session.id))?.lastSequence ?? 0;
  await first.shutdown();
  const sequence = await backing.damage(session.id, last, damage, place);
  const [runtime, scripted] = await runtimeOn(backing.open());
  return { runtime, scripted, sessionId: session.id, sequence };
}
