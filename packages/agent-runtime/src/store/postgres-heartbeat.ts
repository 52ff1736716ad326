/**
 * What the PostgreSQL store's lease heartbeat (lease-heartbeat.ts) renews with: a probe write
 * that must succeed (a revoked grant, a read-only server, a lost database renew nothing), then
 * the renewal of every held lease.
 */
import type { PoolClient } from 'pg';
import type { Leases } from './postgres-lease.js';

/**
 * A write like an append's (a session row and an event row) in a transaction rolled back at
 * once, in one round trip: it fails where an append would for want of grants or a writable
 * server, and leaves nothing. `owner` is the store's own UUID, never outside input.
 */
function probeWrite(client: PoolClient, schema: string, owner: string): Promise<unknown> {
  const id = `'relvo-write-probe-${owner}'`;
  return client.query(
    `BEGIN;
     INSERT INTO ${schema}.sessions
       (session_id, state, default_profile, opened_at, updated_at, last_sequence)
       VALUES (${id}, 'closed', '', '', '', 1);
     INSERT INTO ${schema}.events
       (session_id, sequence, event_id, run_id, occurred_at, wire_version, type, payload)
       VALUES (${id}, 1, ${id}, NULL, '', '', 'probe', '{}');
     ROLLBACK`,
  );
}

/** Probes, then renews; resolves with the leases found lost. */
export async function probeAndRenew(
  client: PoolClient,
  schema: string,
  leases: Leases,
): Promise<string[]> {
  try {
    await probeWrite(client, schema, leases.owner);
  } catch (error) {
    // a failed statement leaves the transaction open on this connection
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return leases.renew(client);
}
