/** The throw-away PostgreSQL cluster of one test file (see pg-cluster.ts). */
import { afterAll, beforeAll } from 'vitest';
import { pgUnavailable, startPgCluster, type PgCluster } from './pg-cluster.js';

/**
 * One cluster for the calling test file: started before its tests, stopped after them.
 * `skip` is the reason it cannot run here (outside CI only; under CI the file fails instead).
 */
export function usePgCluster(): {
  readonly skip: string | undefined;
  cluster(): PgCluster;
  /** A schema name this file has not used yet: `prefix` and a count. */
  schema(prefix: string): string;
} {
  const skip = pgUnavailable();
  let cluster: PgCluster | undefined;
  let schemas = 0;
  beforeAll(async () => {
    if (skip === undefined) cluster = await startPgCluster();
  }, 90_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 30_000);
  return {
    skip,
    cluster() {
      if (cluster === undefined) throw new Error('the PostgreSQL cluster is not running');
      return cluster;
    },
    schema: (prefix) => `${prefix}_${String((schemas += 1))}`,
  };
}
