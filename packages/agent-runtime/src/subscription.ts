import { isTerminal, SESSION_STATE_TABLE } from '@relvo-labs/agent-provider';
import type { EventEnvelope } from './envelope.js';
import { isRuntimeError, RuntimeError } from './errors.js';
import { checkOptions, subscribeOptionsSchema } from './options.js';
import type { SessionLog } from './session/log.js';
import type { EventStore } from './store/types.js';
import { logCorrupt } from './store/verify.js';

export interface SubscribeOptions {
  /** 1-based sequence of the first envelope wanted; default 1 (the whole history). */
  readonly fromSequence?: number;
  /**
   * Live envelopes buffered for a slow reader before it falls back to reading the store.
   * Memory stays bounded; nothing is lost or repeated. Default 1024.
   */
  readonly liveBufferLimit?: number;
}

/** Replays what is stored, then continues live; ends after `session.closed`. */
export interface EventSubscription extends AsyncIterable<EventEnvelope> {
  /** Stops the subscription; a pending `next()` resolves done. Idempotent. */
  close(): void;
}

const PAGE = 256;

interface Source {
  readonly store: EventStore;
  /** Undefined for a session that no live runtime session writes to (history only). */
  readonly log: SessionLog | undefined;
}

/**
 * Gapless and duplicate-free by construction: the live listener is registered before the
 * first store read, envelopes reach listeners only after they are durable, and the reader
 * hands out exactly the envelope whose sequence is next, from the live buffer when it holds
 * it and from the store otherwise.
 */
export function subscribeToSession(
  sessionId: string,
  source: () => Promise<Source>,
  options: SubscribeOptions = {},
): EventSubscription {
  checkOptions(subscribeOptionsSchema, options, 'subscribe options');
  const from = options.fromSequence ?? 1;
  const limit = options.liveBufferLimit ?? 1024;
  let next = from;
  let live: EventEnvelope[] = [];
  let page: EventEnvelope[] = [];
  let caughtUp = false;
  let closed = false;
  let finished = false;
  let wake: (() => void) | undefined;
  let unlisten: (() => void) | undefined;
  let ready: Promise<Source> | undefined;
  let log: SessionLog | undefined;
  /** Following another runtime's appends through the store (no live log here). */
  let watching = false;
  // a watched commit may land during any await above: a function, so no narrowing hides it
  const woken = (): boolean => !caughtUp;
  const ended = (): boolean => closed;

  const signal = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const onCommit = (): void => {
    caughtUp = false;
    signal();
  };
  /** Store reads so far: every one after the first waits a turn of the event loop. */
  let reads = 0;
  /** Transient store failures (`store_io`) in a row while following another runtime. */
  let failures = 0;

  const start = async (): Promise<Source> => {
    if (!Number.isSafeInteger(from) || from < 1) {
      throw new RuntimeError(
        'cursor_out_of_range',
        'cursor_out_of_range',
        'fromSequence must be a positive integer',
      );
    }
    const s = await source();
    log = s.log;
    unlisten = s.log?.listen({
      get reached() {
        return next - 1;
      },
      storeFailed: signal,
      deliver(envelope) {
        if (closed) return;
        live.push(envelope);
        if (live.length > limit) {
          // a slow reader: drop the buffer and read the store instead
          live = [];
          caughtUp = false;
        }
        signal();
      },
    });
    if (s.log === undefined && s.store.watch !== undefined) {
      // another runtime may be writing: each of its commits sends this reader back to the store
      const unwatch = await s.store.watch(sessionId, onCommit);
      if (closed) unwatch();
      else unlisten = unwatch;
      watching = true;
    }
    const summary = await s.store.getSession(sessionId);
    const last = Math.max(summary?.lastSequence ?? 0, s.log?.committedSequence ?? 0);
    if (summary === undefined && s.log === undefined) {
      throw new RuntimeError('unknown_session', 'unknown_session', 'no such session');
    }
    if (from > last + 1) {
      throw new RuntimeError(
        'cursor_out_of_range',
        'cursor_out_of_range',
        'fromSequence is beyond the end of the session',
        {
          details: { lastSequence: last },
        },
      );
    }
    return s;
  };

  const stop = (): void => {
    closed = true;
    unlisten?.();
    unlisten = undefined;
    live = [];
    page = [];
    signal();
  };

  const take = (envelope: EventEnvelope): IteratorResult<EventEnvelope> => {
    next = envelope.sequence + 1;
    if (envelope.payload.type === 'session.closed') {
      finished = true;
      unlisten?.();
    }
    log?.progressed();
    return { done: false, value: envelope };
  };

  /**
   * The page from `next` on. Yields to the event loop before every read but the first: an
   * embedded store settles at once, and a reader must never keep a host's other work waiting.
   */
  const readPage = async (s: Source): Promise<EventEnvelope[]> => {
    if (reads++ > 0) await new Promise((resolve) => setImmediate(resolve));
    if (closed) return [];
    const got = await s.store.read(sessionId, { fromSequence: next, limit: PAGE });
    failures = 0;
    // a store that skipped the sequence asked for: never read the same page again and again
    if (got.length > 0 && (got[0] as EventEnvelope).sequence !== next) {
      throw logCorrupt(next, 'missing');
    }
    return [...got];
  };

  /** Until `ms` passed or the subscription was closed. */
  const pause = async (ms: number): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(signal, ms);
    });
    clearTimeout(timer);
  };

  /**
   * Following another runtime, a transient failure (the server restarted, the LISTEN connection
   * dropped) is waited out: listen again after each of the store's retry waits and read from
   * `next` on, which repeats and skips nothing. Throws the last failure once the waits are spent.
   */
  const rejoin = async (s: Source, error: unknown): Promise<void> => {
    const waits = watching ? s.store.followRetryMs : undefined;
    // a damaged log reads the same on every try: the subscription ends with it
    if (isRuntimeError(error) && error.reason === 'log_corrupt') stop();
    if (waits === undefined) throw error;
    let last = error;
    while (isRuntimeError(last) && last.reason === 'store_io') {
      const ms = waits[failures];
      if (ms === undefined) break;
      failures += 1;
      unlisten?.();
      unlisten = undefined;
      await pause(ms);
      if (ended()) return;
      try {
        const unwatch = await (s.store.watch as NonNullable<EventStore['watch']>)(
          sessionId,
          onCommit,
        );
        if (ended()) unwatch();
        else unlisten = unwatch;
        caughtUp = false;
        return;
      } catch (again) {
        last = again;
      }
    }
    stop();
    throw last;
  };

  async function pull(): Promise<IteratorResult<EventEnvelope>> {
    ready ??= start();
    let s: Source;
    try {
      s = await ready;
    } catch (error) {
      stop();
      throw error;
    }
    for (;;) {
      try {
        return await follow(s);
      } catch (error) {
        await rejoin(s, error);
      }
    }
  }

  async function follow(s: Source): Promise<IteratorResult<EventEnvelope>> {
    for (;;) {
      if (closed || finished) return { done: true, value: undefined };
      while (live.length > 0 && (live[0] as EventEnvelope).sequence < next) live.shift();
      const head = live[0];
      if (head !== undefined && head.sequence === next) {
        live.shift();
        return take(head);
      }
      while (page.length > 0 && (page[0] as EventEnvelope).sequence < next) page.shift();
      const stored = page[0];
      if (stored !== undefined && stored.sequence === next) {
        page.shift();
        return take(stored);
      }
      if (!caughtUp || head !== undefined) {
        page = await readPage(s);
        if (ended() || page.length > 0) continue;
        caughtUp = true;
        if (head !== undefined) {
          // a live envelope the store does not hold: never skip over the hole
          stop();
          throw new RuntimeError(
            'store_conflict',
            'store_conflict',
            'the stored history has a gap',
          );
        }
      }
      // nothing stored beyond `next`: the session is either live or over
      if (s.log === undefined || s.log.closed || s.log.failed !== undefined) {
        const failed = s.log?.failed;
        // a store that refused an append may refuse this read too: the typed failure wins
        const summary = await s.store.getSession(sessionId).catch((error: unknown) => {
          throw failed ?? error;
        });
        const over = s.log === undefined || s.log.failed !== undefined;
        if (watching && summary !== undefined && summary.lastSequence >= next) {
          caughtUp = false; // committed after this reader's last read
          continue;
        }
        if (over && summary !== undefined && isTerminal(SESSION_STATE_TABLE, summary.state)) {
          return { done: true, value: undefined };
        }
        if (s.log?.failed !== undefined) throw s.log.failed;
        if (s.log === undefined && !watching) return { done: true, value: undefined };
      }
      if (watching && woken()) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  }

  // one reader at a time: a second concurrent next() waits its turn (one wake slot, in order)
  let queue: Promise<unknown> = Promise.resolve();
  const nextInOrder = (): Promise<IteratorResult<EventEnvelope>> => {
    const result = queue.then(pull);
    queue = result.catch(() => undefined);
    return result;
  };

  return {
    close: stop,
    [Symbol.asyncIterator](): AsyncIterator<EventEnvelope> {
      return {
        next: nextInOrder,
        return: () => {
          stop();
          return Promise.resolve({ done: true, value: undefined });
        },
      };
    },
  };
}
