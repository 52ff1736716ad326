/**
 * The stores the contract suites run on: memory, SQLite and PostgreSQL (a real server: see
 * pg-cluster.ts). One list, so that every contract case runs on every store.
 */
import { join } from 'node:path';
import {
  createMemoryEventStore,
  openPostgresEventStore,
  openSqliteEventStore,
  type EventStore,
} from '@relvo-labs/agent-runtime';
import { describe, it } from 'vitest';
import { usePgCluster } from './pg-suite.js';
import { onCleanup, rejection, tempDir } from './support.js';

export interface Opened {
  readonly store: EventStore;
  /** Opens the same data again (after `store` is closed); absent for memory. */
  readonly reopen?: () => EventStore;
  /**
   * Opens the same data in another store at once, as a second runtime (process or host) would;
   * absent where one runtime owns the whole store (memory).
   */
  readonly share?: () => EventStore;
}

export interface OpenOptions {
  /** The lease period of stores with leases (short in tests). */
  readonly leaseMs?: number;
}

export interface Kind {
  readonly name: string;
  readonly skip?: string;
  readonly open: (options?: OpenOptions) => Opened;
}

let schemas = 0;

/** Registers the PostgreSQL cluster of the suite that calls it (once per test file). */
export function storeKinds(): readonly Kind[] {
  const server = usePgCluster();
  return [
    { name: 'memory', open: () => ({ store: createMemoryEventStore() }) },
    {
      name: 'sqlite',
      open: (o = {}) => {
        const path = join(tempDir(), 'events.db');
        const again = (): EventStore => openSqliteEventStore({ path, pollMs: 10, ...o });
        return { store: again(), reopen: again, share: again };
      },
    },
    {
      name: 'postgres',
      ...(server.skip === undefined ? {} : { skip: server.skip }),
      open: (o = {}) => {
        const options = {
          connectionString: server.cluster().connectionString,
          schema: `contract_${(schemas += 1)}`,
          ...o,
        };
        const again = (): EventStore => openPostgresEventStore(options);
        return { store: again(), reopen: again, share: again };
      },
    },
  ];
}

/** A store opened for one test, closed after it; `other` opens its data again as another runtime would. */
export type TestStore = Opened & { readonly other: () => EventStore };

/**
 * One describe block per store kind, titled `title` (`$name` is the kind): `suite` gets an
 * `open` whose stores close after each test. A kind without its server is a visible skip.
 */
export function describeEachStore(
  title: string,
  suite: (open: (options?: OpenOptions) => TestStore, kind: Kind) => void,
): void {
  describe.each(storeKinds())(title, (kind) => {
    if (kind.skip !== undefined) {
      it.skip(`skipped: ${kind.skip}`, () => undefined);
      return;
    }
    suite((options) => {
      const o = kind.open(options);
      onCleanup(() => o.store.close());
      const other = (): EventStore => {
        if (o.share === undefined) throw new Error('not shared');
        const s = o.share();
        onCleanup(() => s.close());
        return s;
      };
      return { ...o, other };
    }, kind);
  });
}

/** The reason of the typed error `p` is rejected with; anything else fails the test. */
export async function refusal(p: Promise<unknown>): Promise<string> {
  return (await rejection(p)).reason;
}
