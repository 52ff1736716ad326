/**
 * One Server-Sent Events response: its head, a heartbeat comment that keeps idle proxies from
 * closing it, events written whole (so two writers never interleave within one), and
 * backpressure — a writer waits for the socket to drain, or for the reader to go away.
 */
import type { ServerResponse } from 'node:http';
import { COMMON_HEADERS } from './http.js';

export const HEARTBEAT_MS = 15_000;

export class SseChannel {
  readonly #res: ServerResponse;
  readonly #heartbeat: NodeJS.Timeout;

  constructor(res: ServerResponse) {
    this.#res = res;
    res.writeHead(200, {
      ...COMMON_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
    });
    res.write(': relvo console stream\n\n');
    this.#heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  /** The reader went away, or the channel ended. */
  get gone(): boolean {
    return this.#res.destroyed || this.#res.writableEnded;
  }

  /** Calls `fn` once the reader goes away (the response's close, not the request's). */
  onGone(fn: () => void): () => void {
    this.#res.once('close', fn);
    return () => this.#res.off('close', fn);
  }

  /** One event; `id` sets the reader's Last-Event-ID. Resolves once the socket can take more. */
  async send(event: string, data: unknown, id?: number): Promise<void> {
    if (this.gone) return;
    const head = id === undefined ? '' : `id: ${String(id)}\n`;
    const ok = this.#res.write(`${head}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    if (ok) return;
    const res = this.#res;
    await new Promise<void>((resolve) => {
      // both listeners go once either fires: a long stream must not pile them up
      const done = (): void => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.once('drain', done);
      res.once('close', done);
    });
  }

  end(): void {
    clearInterval(this.#heartbeat);
    if (!this.#res.writableEnded) this.#res.end();
  }
}
