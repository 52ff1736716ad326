/**
 * One session's envelopes as Server-Sent Events: replayed from the log from a sequence, then
 * live, through the runtime's own subscription (gapless, no duplicates). Each event's id is
 * its sequence, so a reader resumes with `?from=` or `Last-Event-ID`. Ends after
 * `session.closed` with an `end` event.
 */
import type { ServerResponse } from 'node:http';
import type { AgentRuntime } from '@relvo-labs/agent-runtime';
import { refusalOf } from './api.js';
import { HttpRefusal } from './http.js';
import { SseChannel } from './sse.js';

export { HEARTBEAT_MS } from './sse.js';

/** Refuses (before any byte is sent) a session the store does not know or a cursor past its end. */
export async function checkCursor(
  runtime: AgentRuntime,
  sessionId: string,
  from: number,
): Promise<void> {
  const stored = await runtime.store.getSession(sessionId);
  if (stored === undefined) throw new HttpRefusal(404, 'unknown_session');
  if (from > stored.lastSequence + 1) throw new HttpRefusal(400, 'cursor_out_of_range');
}

/**
 * Writes the session's envelopes from `from` to the channel until the session's log ends (then
 * an `end` event), the reader goes away or `stopped` says so; a refusal from the runtime is an
 * `refused` event. Resolves when it stopped writing.
 */
export async function pumpEnvelopes(
  runtime: AgentRuntime,
  sessionId: string,
  from: number,
  channel: SseChannel,
): Promise<void> {
  const subscription = runtime.subscribe(sessionId, { fromSequence: from });
  const unhook = channel.onGone(() => {
    subscription.close();
  });
  try {
    for await (const envelope of subscription) {
      if (channel.gone) break;
      await channel.send('envelope', envelope, envelope.sequence);
    }
    await channel.send('end', { sessionId });
  } catch (error) {
    await channel.send('refused', { refused: refusalOf(error).reason });
  } finally {
    unhook();
    subscription.close();
  }
}

export async function streamSession(
  runtime: AgentRuntime,
  sessionId: string,
  from: number,
  res: ServerResponse,
  streams: Set<() => void>,
): Promise<void> {
  await checkCursor(runtime, sessionId, from);
  const channel = new SseChannel(res);
  const end = (): void => {
    channel.end();
  };
  streams.add(end);
  try {
    await pumpEnvelopes(runtime, sessionId, from, channel);
  } finally {
    streams.delete(end);
    channel.end();
  }
}
