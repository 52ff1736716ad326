/**
 * A page's one stream (`GET /api/stream`): the sessions list and the inbox whenever they change
 * (`sessions` and `inbox` events, each the whole current value, first at once), and, when the
 * page follows a session, that session's envelopes as `/api/sessions/:id/stream` sends them
 * (`envelope` with the sequence as id, `end` once its log closed — the stream itself stays); and
 * the runtime's warm pool (`pool`, after the first list, then on each change). A reader slower
 * than the changes gets the newest list and pool, never a backlog of old ones.
 */
import type { ServerResponse } from 'node:http';
import type { AgentRuntime, WarmPoolState } from '@relvo-labs/agent-runtime';
import { refusalOf } from './api.js';
import type { LiveList, LiveSnapshot } from './live-list.js';
import { SseChannel } from './sse.js';
import { checkCursor, pumpEnvelopes } from './stream.js';

export interface LiveStreamRequest {
  readonly sessionId?: string;
  readonly from: number;
}

interface Waiting {
  snapshot?: LiveSnapshot;
  sessions: boolean;
  pending: boolean;
  pool?: WarmPoolState;
}

/**
 * Writes list snapshots and pool states one at a time, in that order; one that arrives meanwhile
 * replaces any of its kind still waiting.
 */
class SnapshotWriter {
  #waiting: Waiting | undefined;
  #busy = false;

  constructor(private readonly channel: SseChannel) {}

  offer(snapshot: LiveSnapshot, changed: { sessions: boolean; pending: boolean }): void {
    const w = this.#waiting;
    this.#waiting = {
      ...w,
      snapshot,
      sessions: changed.sessions || (w?.sessions ?? false),
      pending: changed.pending || (w?.pending ?? false),
    };
    this.#kick();
  }

  offerPool(pool: WarmPoolState): void {
    this.#waiting = { sessions: false, pending: false, ...this.#waiting, pool };
    this.#kick();
  }

  #kick(): void {
    if (!this.#busy) void this.#drain();
  }

  async #drain(): Promise<void> {
    this.#busy = true;
    try {
      for (let w = this.#waiting; w !== undefined; w = this.#waiting) {
        this.#waiting = undefined;
        const { snapshot, pool } = w;
        if (w.sessions && snapshot !== undefined) {
          await this.channel.send('sessions', { sessions: snapshot.sessions });
        }
        if (w.pending && snapshot !== undefined) {
          await this.channel.send('inbox', { pending: snapshot.pending });
        }
        if (pool !== undefined) await this.channel.send('pool', pool);
      }
    } finally {
      this.#busy = false;
    }
  }
}

export async function streamLive(
  runtime: AgentRuntime,
  list: LiveList,
  request: LiveStreamRequest,
  res: ServerResponse,
  streams: Set<() => void>,
): Promise<void> {
  const { sessionId, from } = request;
  if (sessionId !== undefined) await checkCursor(runtime, sessionId, from);
  const channel = new SseChannel(res);
  const end = (): void => {
    channel.end();
  };
  streams.add(end);
  const gone = new Promise<void>((resolve) => {
    channel.onGone(resolve);
  });
  const refuse = (error: unknown): void => {
    void channel.send('refused', { refused: refusalOf(error).reason }).finally(end);
  };
  let stop: (() => void) | undefined;
  let stopPool: (() => void) | undefined;
  try {
    const writer = new SnapshotWriter(channel);
    stop = await list.follow((snapshot, changed) => {
      writer.offer(snapshot, changed);
    }, refuse);
    // after the first list: the pool's first state follows it
    stopPool = runtime.watchWarmPool((state) => {
      writer.offerPool(state);
    });
    writer.offerPool(runtime.warmPool());
    if (sessionId !== undefined) void pumpEnvelopes(runtime, sessionId, from, channel);
    await gone;
  } catch (error) {
    refuse(error);
  } finally {
    stop?.();
    stopPool?.();
    streams.delete(end);
    end();
  }
}
