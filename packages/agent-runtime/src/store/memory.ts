import { randomBytes } from 'node:crypto';
import type { EventEnvelope } from '../envelope.js';
import { rejection, RuntimeError } from '../errors.js';
import { RECORD_KEY_MIN_BYTES } from '../record-key.js';
import { summariesAfter } from './batch.js';
import type { EventStore, ReadOptions, StoredSession } from './types.js';

interface MemorySession {
  summary: StoredSession;
  readonly events: EventEnvelope[];
}

/**
 * An EventStore held in this process's memory: the same contract as the SQLite store (gapless
 * check, atomic batches, one claim at a time) without durability. History grows with the
 * runtime's lifetime; use it for tests and short-lived hosts.
 */
export function createMemoryEventStore(): EventStore {
  const sessions = new Map<string, MemorySession>();
  // only this process writes it: its own appends are all there is to watch
  const watchers = new Set<() => void>();
  let claimed = false;
  let closed = false;
  // the log dies with the process, and so does its key
  const key = randomBytes(RECORD_KEY_MIN_BYTES);

  const live = (): void => {
    if (closed)
      throw new RuntimeError('store_unavailable', 'store_closed', 'the event store is closed');
  };

  return {
    kind: 'memory',
    recordKey: () => key,
    claim() {
      try {
        live();
        if (claimed) {
          throw new RuntimeError(
            'store_unavailable',
            'store_locked',
            'the event store is claimed by another runtime',
          );
        }
        claimed = true;
        return Promise.resolve();
      } catch (error) {
        return rejection(error);
      }
    },
    append(batch) {
      try {
        live();
        // validate the whole batch before touching anything: atomic
        const next = summariesAfter(batch, (id) => sessions.get(id)?.summary);
        let session: MemorySession | undefined;
        for (const envelope of batch) {
          // a batch is mostly one session's run of envelopes: look it up when it changes
          if (session?.summary.sessionId !== envelope.sessionId) {
            session = sessions.get(envelope.sessionId);
            if (session === undefined) {
              session = { summary: next.get(envelope.sessionId) as StoredSession, events: [] };
              sessions.set(envelope.sessionId, session);
            }
          }
          session.events.push(envelope);
        }
        for (const [id, summary] of next) (sessions.get(id) as MemorySession).summary = summary;
        if (watchers.size > 0)
          queueMicrotask(() => {
            for (const fn of [...watchers]) fn();
          });
        return Promise.resolve();
      } catch (error) {
        return rejection(error);
      }
    },
    read(sessionId: string, options: ReadOptions) {
      try {
        live();
        const events = sessions.get(sessionId)?.events ?? [];
        const start = Math.max(0, options.fromSequence - 1);
        return Promise.resolve(events.slice(start, start + options.limit));
      } catch (error) {
        return rejection(error);
      }
    },
    getSession(sessionId) {
      return Promise.resolve(sessions.get(sessionId)?.summary);
    },
    listSessions() {
      return Promise.resolve([...sessions.values()].map((s) => s.summary));
    },
    watchLog(onChange) {
      watchers.add(onChange);
      return Promise.resolve(() => {
        watchers.delete(onChange);
      });
    },
    close() {
      closed = true;
      watchers.clear();
      claimed = false;
      return Promise.resolve();
    },
  };
}
