/** A session's log on its own, over a store the test chooses: no runtime, no provider. */
import type { EventEnvelope, EventStore } from '@relvo-labs/agent-runtime';
import { systemClock } from '../src/clock.js';
import { randomId } from '../src/ids.js';
import { SessionLog } from '../src/session/log.js';
import { EventWriter } from '../src/session/writer.js';

export interface OpenedLog {
  readonly log: SessionLog;
  /** Whether the log told its listener that the store failed. */
  readonly storeFailed: () => boolean;
}

/**
 * The log of `sessionId` on `store` (claimed here) with a listener that hands each delivered
 * envelope to `deliver`, and a `session.opened` of `workspace` appended as its first record.
 */
export async function openedLog(
  store: EventStore,
  sessionId: string,
  options: {
    deliver?: (envelope: EventEnvelope) => void;
    workspace?: { root: string; ownership: 'borrowed' | 'managed' };
  } = {},
): Promise<OpenedLog> {
  await store.claim();
  const log = new SessionLog(new EventWriter(store, systemClock, randomId), sessionId);
  let delivered = 0;
  let failed = false;
  log.listen({
    get reached() {
      return delivered;
    },
    storeFailed: () => {
      failed = true;
    },
    deliver: (e) => {
      delivered += 1;
      options.deliver?.(e);
    },
  });
  const workspace = options.workspace ?? { root: '/w', ownership: 'borrowed' };
  log.append({ type: 'session.opened', defaultProfile: 'p', workspace });
  return { log, storeFailed: () => failed };
}
