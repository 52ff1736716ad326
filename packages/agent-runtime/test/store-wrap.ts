/** Test stores that change only how an append behaves; everything else is the inner store's. */
import type { EventEnvelope, EventStore } from '@relvo-labs/agent-runtime';

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
