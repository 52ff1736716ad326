/**
 * Several runtimes on one PostgreSQL schema in one test process, as a fleet of hosts would be:
 * each with its own pool, store and provider. `kill` makes one stop talking to the database at
 * once (its pool ends; nothing is released), as a host that died would: its leases lapse by the
 * database's clock and every later statement of it fails.
 */
import type { AgentProvider } from '@relvo-labs/agent-provider';
import {
  createAgentRuntime,
  isRuntimeError,
  openPostgresEventStore,
  type AgentRuntime,
  type EventStore,
  type RuntimeClock,
} from '@relvo-labs/agent-runtime';
import pg from 'pg';
import type { CommandTable } from '../src/store/commands.js';
import { pgQuery, testRecordKey, type PgCluster } from './pg-cluster.js';
import { onCleanup, settledAs, settlesWithin } from './support.js';

export const FLEET_CONFIG = {
  defaultProfile: 'm',
  profiles: { m: { provider: 'manual' } },
};

export interface FleetMember {
  readonly runtime: AgentRuntime;
  readonly store: EventStore;
  readonly table: CommandTable;
  /** The host dies: its pool ends, its leases are left to lapse. */
  kill(): void;
}

export interface MemberOptions {
  readonly provider: AgentProvider;
  readonly leaseMs?: number;
  readonly commandTimeoutMs?: number;
  readonly clock?: RuntimeClock;
}

export interface Fleet {
  readonly schema: string;
  member(options: MemberOptions): Promise<FleetMember>;
  /** One statement from outside every member. */
  sql<R extends object>(text: string, params?: unknown[]): Promise<R[]>;
  /** The command rows, oldest first, as the database holds them. */
  commands(): Promise<CommandRow[]>;
}

export interface CommandRow {
  readonly command_id: string;
  readonly issued_by: string;
  readonly state: string;
  readonly accepted_by: string | null;
  readonly settlement: string | null;
}

export function fleet(cluster: () => PgCluster, schema: string): Fleet {
  const sql = <R extends object>(text: string, params: unknown[] = []): Promise<R[]> =>
    pgQuery<R>(cluster().connectionString, text, params);
  return {
    schema,
    sql,
    commands: () =>
      sql<CommandRow>(
        `SELECT command_id, issued_by, state, accepted_by, settlement::text AS settlement
         FROM ${schema}.commands ORDER BY seq`,
      ),
    async member(options) {
      const pool = new pg.Pool({ connectionString: cluster().connectionString, max: 6 });
      pool.on('error', () => undefined);
      let killed = false;
      const store = openPostgresEventStore({
        pool,
        schema,
        leaseMs: options.leaseMs ?? 30_000,
        recordKey: testRecordKey(schema),
      });
      const runtime = await createAgentRuntime({
        providers: { manual: () => options.provider },
        config: FLEET_CONFIG,
        store,
        closeGraceMs: 2_000,
        commandTimeoutMs: options.commandTimeoutMs ?? 20_000,
        ...(options.clock === undefined ? {} : { clock: options.clock }),
      });
      onCleanup(async () => {
        await runtime.shutdown().catch((error: unknown) => {
          // a killed member cannot record its shutdown; any other failure is the test's
          if (!killed || !isRuntimeError(error)) throw error;
        });
        await pool.end().catch(() => undefined);
      });
      const table = store.commands;
      if (table === undefined) throw new Error('the PostgreSQL store has no command table');
      return {
        runtime,
        store,
        table,
        kill() {
          killed = true;
          // not awaited: the clients it still lends out end when given back
          void pool.end().catch(() => undefined);
        },
      };
    },
  };
}

/**
 * How a routed call ended, within `timeoutMs`: 'resolved', or its typed refusal as code, reason
 * and whether it was routed; an untyped failure fails the test.
 */
export async function routedRefusal(
  call: Promise<unknown>,
  timeoutMs: number,
): Promise<[string, string, unknown] | 'resolved'> {
  const error = await settlesWithin(settledAs(call), 'the refusal', timeoutMs);
  if (error === 'resolved') return 'resolved';
  if (!isRuntimeError(error)) throw new Error('not a runtime error', { cause: error });
  return [error.code, error.reason, error.error.details?.['routed']];
}
