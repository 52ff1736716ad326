/** Test stores that change only how an append behaves; everything else is the inner store's. */
import {
  createMemoryEventStore,
  type EventEnvelope,
  type EventStore,
} from '@relvo-labs/agent-runtime';

export function withAppend(
  inner: EventStore,
  kind: string,
  append: (batch: readonly EventEnvelope[]) => Promise<void>,
): EventStore {
  return {
    kind,
    claim: () => inner.claim(),
    append,
    read: (id, options) => inner.read(id, options),
    getSession: (id) => inner.getSession(id),
    listSessions: () => inner.listSessions(),
    close: () => inner.close(),
    ...(inner.takeOver === undefined ? {} : { takeOver: inner.takeOver.bind(inner) }),
  };
}

/** A held commit: `reached` once it is at the store (and waits there), `release` lets it go. */
export interface Gate {
  readonly reached: Promise<void>;
  readonly release: () => void;
}

/** A memory store whose next commit carrying a payload of a given type can be held or refused. */
export function typeGatedStore(): {
  store: EventStore;
  /** Holds the next commit carrying `type`. */
  hold: (type: string) => Gate;
  /** Fails the next commit carrying `type`, and every commit after it. */
  refuse: (type: string) => void;
} {
  const inner = createMemoryEventStore();
  const held = new Map<string, { reached: () => void; released: Promise<void> }>();
  const refused = new Set<string>();
  let broken = false;
  const carries = (batch: readonly EventEnvelope[], type: string): boolean =>
    batch.some((e) => e.payload.type === type);
  const store = withAppend(inner, 'gated', async (batch) => {
    if ([...refused].some((t) => carries(batch, t))) broken = true;
    if (broken) throw new Error('EIO: i/o error');
    for (const [type, gate] of held) {
      if (!carries(batch, type)) continue;
      held.delete(type);
      gate.reached();
      await gate.released;
    }
    return inner.append(batch);
  });
  return {
    store,
    hold: (type) => {
      let reached!: () => void;
      let release!: () => void;
      const gate: Gate = {
        reached: new Promise((r) => {
          reached = r;
        }),
        release: () => {
          release();
        },
      };
      held.set(type, {
        reached,
        released: new Promise((r) => {
          release = r;
        }),
      });
      return gate;
    },
    refuse: (type) => {
      refused.add(type);
    },
  };
}

/** A commit a batch-held store keeps until the test releases it, as written or as failed. */
export interface HeldBatch {
  readonly batch: readonly EventEnvelope[];
  release(fail?: boolean): void;
}

/** A memory store whose appends wait until the test releases them, one by one. */
export function batchHeldStore(): {
  store: EventStore;
  readonly held: HeldBatch[];
  /** The last sequence an append made durable. */
  readonly durableUpTo: () => number;
} {
  const inner = createMemoryEventStore();
  const held: HeldBatch[] = [];
  let durable = 0;
  const store = withAppend(
    inner,
    'gated',
    (batch) =>
      new Promise<void>((resolve, reject) => {
        held.push({
          batch,
          release: (fail = false) => {
            if (fail) {
              reject(new Error('EIO: i/o error'));
              return;
            }
            inner.append(batch).then(() => {
              durable = batch.at(-1)?.sequence ?? durable;
              resolve();
            }, reject);
          },
        });
      }),
  );
  return { store, held, durableUpTo: () => durable };
}
