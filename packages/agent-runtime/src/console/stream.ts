/**
 * One session's envelopes as Server-Sent Events: replayed from the log from a sequence, then
 * live, through the runtime's own subscription (gapless, no duplicates). Each event's id is
 * its sequence, so a reader resumes with `?from=` or `Last-Event-ID`. Ends after
 * `session.closed` with an `end` event; a heartbeat comment keeps idle proxies from closing it.
 */
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { AgentRuntime } from '@relvo-labs/agent-runtime';
import { refusalOf } from './api.js';
import { COMMON_HEADERS, HttpRefusal } from './http.js';

export const HEARTBEAT_MS = 15_000;

export async function streamSession(
  runtime: AgentRuntime,
  sessionId: string,
  from: number,
  res: ServerResponse,
  streams: Set<() => void>,
): Promise<void> {
  const stored = await runtime.store.getSession(sessionId);
  if (stored === undefined) throw new HttpRefusal(404, 'unknown_session');
  if (from > stored.lastSequence + 1) throw new HttpRefusal(400, 'cursor_out_of_range');
  const subscription = runtime.subscribe(sessionId, { fromSequence: from });
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'content-type': 'text/event-stream; charset=utf-8',
    connection: 'keep-alive',
  });
  res.write(': relvo console stream\n\n');
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const end = (): void => {
    subscription.close();
  };
  streams.add(end);
  // the response's close: the client went away (a request's close only says its body ended)
  res.once('close', end);
  try {
    for await (const envelope of subscription) {
      if (res.destroyed) break;
      const ok = res.write(
        `id: ${envelope.sequence}\nevent: envelope\ndata: ${JSON.stringify(envelope)}\n\n`,
      );
      if (!ok) await Promise.race([once(res, 'drain'), once(res, 'close')]);
    }
    if (!res.destroyed) res.write('event: end\ndata: {}\n\n');
  } catch (error) {
    if (!res.destroyed) {
      res.write(
        `event: refused\ndata: ${JSON.stringify({ refused: refusalOf(error).reason })}\n\n`,
      );
    }
  } finally {
    clearInterval(heartbeat);
    streams.delete(end);
    res.off('close', end);
    res.end();
  }
}
