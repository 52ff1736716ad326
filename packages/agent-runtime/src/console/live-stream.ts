/**
 * A page's one stream (`GET /api/stream`): the sessions list and the inbox whenever they change
 * (`sessions` and `inbox` events, each the whole current value, first at once), and, when the
 * page follows a session, that session's envelopes as `/api/sessions/:id/stream` sends them
 * (`envelope` with the sequence as id, `end` once its log closed — the stream itself stays). A
 * reader slower than the list changes gets the newest list, never a backlog of old ones.
 */
import type { ServerResponse } from 'node:http';
import type { AgentRuntime } from '@relvo-labs/agent-runtime';
import { refusalOf } from './api.js';
import type { LiveList, LiveSnapshot } from './live-list.js';
import { SseChannel } from './sse.js';
import { checkCursor, pumpEnvelopes } from './stream.js';

export interface LiveStreamRequest {
  readonly sessionId?: string;
  readonly from: number;
}

/** Writes list snapshots one at a time; one that arrives meanwhile replaces any still waiting. */
class SnapshotWriter {
  #waiting: { snapshot: LiveSnapshot; sessions: boolean; pending: boolean } | undefined;
  #busy = false;

  constructor(private readonly channel: SseChannel) {}

  offer(snapshot: LiveSnapshot, changed: { sessions: boolean; pending: boolean }): void {
    const w = this.#waiting;
    this.#waiting = {
      snapshot,
      sessions: changed.sessions || (w?.sessions ?? false),
      pending: changed.pending || (w?.pending ?? false),
    };
    if (!this.#busy) void this.#drain();
  }

  async #drain(): Promise<void> {
    this.#busy = true;
    try {
      for (let w = this.#waiting; w !== undefined; w = this.#waiting) {
        this.#waiting = undefined;
        if (w.sessions) await this.channel.send('sessions', { sessions: w.snapshot.sessions });
        if (w.pending) await this.channel.send('inbox', { pending: w.snapshot.pending });
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
  try {
    const writer = new SnapshotWriter(channel);
    stop = await list.follow((snapshot, changed) => {
      writer.offer(snapshot, changed);
    }, refuse);
    if (sessionId !== undefined) void pumpEnvelopes(runtime, sessionId, from, channel);
    await gone;
  } catch (error) {
    refuse(error);
  } finally {
    stop?.();
    streams.delete(end);
    end();
  }
}
