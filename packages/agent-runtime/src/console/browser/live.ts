/**
 * The page's one stream (`GET /api/stream`): the sessions list, the inbox, the warm pool and the
 * chosen session's envelopes arrive on one fetch-read Server-Sent Events response (fetch, so the
 * token goes in a header). Choosing another session replaces the stream; a dropped one is
 * opened again where it stopped (the next sequence), at most `MAX_ATTEMPTS` times in a row.
 * Nothing here asks the server on a timer.
 */
import { authHeader } from './api.js';
import { byId, isRecord, setStatus, str } from './dom.js';
import type { Pending } from './inbox.js';
import { internalToggle } from './internal.js';
import { TimelineView, type Envelope } from './render.js';
import type { Row } from './sessions-table.js';

const MAX_ATTEMPTS = 30;
const RETRY_MS = 1000;

export interface LiveHandlers {
  sessions(rows: Row[]): void;
  inbox(pending: Pending[]): void;
  /** The serving runtime's warm pool (`GET /api/pool`'s shape), unchecked. */
  pool(data: unknown): void;
  /** An interaction was answered from the timeline. */
  answered(): void;
  /** The stream refused the session (e.g. `unknown_session`): the page follows none. */
  lost(reason: string): void;
}

interface SseEvent {
  readonly event: string;
  readonly data: string;
}

/** Splits SSE text into events; returns the unfinished tail. */
function parseBlocks(buf: string, each: (e: SseEvent) => void): string {
  let rest = buf;
  let i: number;
  while ((i = rest.indexOf('\n\n')) >= 0) {
    const block = rest.slice(0, i);
    rest = rest.slice(i + 2);
    let event = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (data !== '') each({ event, data });
  }
  return rest;
}

function parsed(data: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(data);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}

export class LiveStream {
  readonly #on: LiveHandlers;
  #ctrl: AbortController | undefined;
  #sessionId = '';
  #next = 1;
  #view: TimelineView | undefined;
  /** The server refused the stream mid-way: opening it again would be refused again. */
  #refused = false;

  constructor(on: LiveHandlers) {
    this.#on = on;
  }

  /** Follows `sessionId` ('' for none), drawing its timeline from the start. */
  follow(sessionId: string): void {
    this.#ctrl?.abort();
    this.#sessionId = sessionId;
    this.#next = 1;
    const timeline = byId('timeline');
    timeline.replaceChildren();
    delete timeline.dataset.ended;
    this.#view = undefined;
    if (sessionId !== '') {
      if (timeline.parentElement?.querySelector('.internal-toggle') == null)
        timeline.before(internalToggle(timeline));
      this.#view = new TimelineView(timeline, () => {
        this.#on.answered();
      });
    }
    const ctrl = new AbortController();
    this.#ctrl = ctrl;
    void this.#run(ctrl);
  }

  #url(): string {
    if (this.#sessionId === '') return '/api/stream';
    return `/api/stream?session=${encodeURIComponent(this.#sessionId)}&from=${String(this.#next)}`;
  }

  #event(e: SseEvent): void {
    const data = parsed(e.data);
    if (e.event === 'sessions' && Array.isArray(data['sessions'])) {
      this.#on.sessions(data['sessions'].filter(isRecord) as unknown as Row[]);
    } else if (e.event === 'inbox' && Array.isArray(data['pending'])) {
      this.#on.inbox(data['pending'].filter(isRecord) as unknown as Pending[]);
    } else if (e.event === 'pool') {
      this.#on.pool(data);
    } else if (e.event === 'envelope') {
      const env = data as unknown as Envelope;
      if (env.sequence !== this.#next) return;
      this.#view?.render(env);
      this.#next += 1;
    } else if (e.event === 'end') {
      byId('timeline').dataset.ended = 'true';
    } else if (e.event === 'refused') {
      this.#refused = true;
      setStatus(`stream refused (${String(data['refused'])})`);
    }
  }

  /** A method, not the field: the field changes while `#run` awaits. */
  #wasRefused(): boolean {
    return this.#refused;
  }

  async #run(ctrl: AbortController): Promise<void> {
    this.#refused = false;
    const stopped = (): boolean => ctrl.signal.aborted;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && !stopped(); attempt++) {
      try {
        const res = await fetch(this.#url(), { headers: authHeader(), signal: ctrl.signal });
        if (!res.ok || res.body === null) {
          const reason = str(parsed(await res.text())['refused'], String(res.status));
          if (this.#sessionId !== '' && res.status === 404) this.#on.lost(reason);
          else setStatus(`stream refused (${reason})`);
          return;
        }
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buf = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          // a stream that delivered something is a success: the count of failures restarts
          attempt = 0;
          buf = parseBlocks(buf + value, (e) => {
            this.#event(e);
          });
        }
      } catch {
        if (stopped()) return;
      }
      if (this.#wasRefused()) return;
      setStatus('reconnecting…');
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
    if (!stopped()) setStatus('disconnected: reload the page');
  }
}
