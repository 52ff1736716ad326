/**
 * The JSON-RPC client over a `CodexTransport` (docs/behaviour.md §4). Owns outbound ids and
 * deadlines, routes inbound frames to one listener, and reduces everything it reports to bounded
 * tokens. It is the one owner of how the stream ended and whether it is fenced: a listener that
 * takes over later (`listen`) is told both at once, like a settled promise.
 */
import { unrefClock } from '../shared/unref-clock.js';
import { causeTokenOf, spawnCauseOf } from '../shared/cause-token.js';
import { callSafely } from '../shared/call-safely.js';
import { fromIterableTransport } from '../transport/iterable.js';
import type { CodexFrameSink } from '../transport/types.js';
import {
  CodexRpcError,
  connectionClosedRejection,
  wireRejection,
  sendRejection,
} from './errors.js';
import { classifyFrame } from './frames.js';
import type {
  JsonRpcClient,
  JsonRpcClientOptions,
  RequestOptions,
  RpcEnd,
  RpcListener,
  RpcNotification,
} from './client-types.js';
import {
  createServerRequestLedger,
  type RpcDiagnostic,
  type RpcFenceReason,
} from './server-requests.js';

export type {
  RpcDiagnostic,
  RpcFenceReason,
  ServerRequestHandler,
  ServerRequestOffer,
} from './server-requests.js';
export type {
  JsonRpcClient,
  JsonRpcClientOptions,
  RequestOptions,
  RpcClock,
  RpcEnd,
  RpcListener,
  RpcNotification,
} from './client-types.js';

// setTimeout rejects delays above a signed 32-bit millisecond count (it fires at once).
const MAX_TIMER_MS = 2_147_483_647;

interface Pending {
  readonly method: string;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
  timer: unknown;
  /** Removes the abort listener of a request that was given a signal. */
  unlisten: (() => void) | undefined;
}

function abortedError(method: string): CodexRpcError {
  return new CodexRpcError('request_aborted', `codex ${method} was abandoned by its caller`);
}

const ignore = (): void => undefined;

function plainNotification(method: string, params: unknown): RpcNotification {
  return { method, params };
}

export function createJsonRpcClient<N = RpcNotification>(
  options: JsonRpcClientOptions<N>,
): JsonRpcClient<N> {
  const transport = fromIterableTransport(options.transport);
  const clock = options.clock ?? unrefClock;
  // without a decoder, N is the plain notification (the default type argument)
  const decode = options.decode ?? (plainNotification as (method: string, params: unknown) => N);
  const pending = new Map<number, Pending>();
  let listener: RpcListener<N> = options;
  let nextId = 1;
  let ended: RpcEnd | undefined;
  let fence: RpcFenceReason | undefined;
  let resolveEnded: (end: RpcEnd) => void = () => undefined;
  const endedPromise = new Promise<RpcEnd>((resolve) => {
    resolveEnded = resolve;
  });

  // A failing diagnostic sink must not disturb the connection.
  function diagnose(diagnostic: RpcDiagnostic): void {
    callSafely(() => {
      listener.onDiagnostic(diagnostic);
    });
  }

  // Host callbacks run inside the read loop; one that throws must not end the stream.
  function guarded(call: () => void): void {
    callSafely(call, () => {
      diagnose({ token: 'callback_failed', level: 'warning' });
    });
  }

  const ledger = createServerRequestLedger({
    send: (frame) => {
      void deliver(frame).catch(ignore);
    },
    handler: (offer) => listener.onServerRequest(offer),
    drop: (reason) => {
      guarded(() => {
        listener.onDrop(reason);
      });
    },
    diagnose,
    fence: (reason) => {
      fence ??= reason;
      guarded(() => {
        listener.onFence(reason);
      });
    },
  });

  function settle(id: number): Pending | undefined {
    const entry = pending.get(id);
    if (entry === undefined) return undefined;
    pending.delete(id);
    if (entry.timer !== undefined) clock.clearTimeout(entry.timer);
    entry.unlisten?.();
    return entry;
  }

  function deadlineFor(requestOptions: RequestOptions | undefined): number | undefined {
    const ms = requestOptions?.timeoutMs ?? options.requestTimeoutMs;
    if (!Number.isFinite(ms) || ms <= 0) return undefined;
    return Math.min(ms, MAX_TIMER_MS);
  }

  /** The transport's send, with a push transport that throws reduced to a refused write. */
  function deliver(frame: unknown): Promise<void> {
    try {
      return transport.send(frame);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error('send failed'));
    }
  }

  function request(
    method: string,
    params: unknown,
    requestOptions?: RequestOptions,
  ): Promise<unknown> {
    if (ended !== undefined) return Promise.reject(connectionClosedRejection(method));
    const signal = requestOptions?.signal;
    if (signal?.aborted === true) return Promise.reject(abortedError(method));
    const id = nextId;
    nextId += 1;
    return new Promise<unknown>((resolve, reject) => {
      const entry: Pending = { method, resolve, reject, timer: undefined, unlisten: undefined };
      pending.set(id, entry);
      if (signal !== undefined) {
        const onAbort = (): void => {
          if (settle(id) !== undefined) reject(abortedError(method));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        entry.unlisten = () => {
          signal.removeEventListener('abort', onAbort);
        };
      }
      const ms = deadlineFor(requestOptions);
      if (ms !== undefined) {
        entry.timer = clock.setTimeout(() => {
          if (settle(id) === undefined) return;
          reject(new CodexRpcError('request_timeout', `codex ${method} timed out`));
        }, ms);
      }
      deliver(params === undefined ? { id, method } : { id, method, params }).catch(
        (err: unknown) => {
          if (settle(id) !== undefined) reject(sendRejection(method, err));
        },
      );
    });
  }

  function notify(method: string, params?: unknown): void {
    if (ended !== undefined) return;
    void deliver(params === undefined ? { method } : { method, params }).catch(ignore);
  }

  function handleFrame(raw: unknown): void {
    const frame = classifyFrame(raw);
    switch (frame.kind) {
      case 'unclassifiable':
        guarded(() => {
          listener.onDrop('unclassifiable', frame.reason);
        });
        return;
      case 'notification':
        try {
          listener.onNotification(decode(frame.method, frame.params));
        } catch {
          diagnose({ token: 'callback_failed', level: 'warning' });
        }
        return;
      case 'request':
        ledger.receive(frame.id, frame.method, frame.params);
        return;
      case 'response':
      case 'error': {
        // Our ids are numbers; a string id (even "1") names no pending request.
        const entry = typeof frame.id === 'number' ? settle(frame.id) : undefined;
        if (entry === undefined) {
          guarded(() => {
            listener.onDrop('unknown_reply');
          });
          return;
        }
        if (frame.kind === 'response') entry.resolve(frame.result);
        else entry.reject(wireRejection(entry.method, frame.error));
        return;
      }
    }
  }

  function finish(end: RpcEnd): void {
    if (ended !== undefined) return;
    ended = end;
    for (const id of [...pending.keys()]) {
      const entry = settle(id);
      entry?.reject(
        new CodexRpcError('connection_lost', `codex connection lost during ${entry.method}`),
      );
    }
    guarded(() => {
      listener.onEnd(end);
    });
    resolveEnded(end);
  }

  // The transport pushes each frame here as it decodes it: no queue, no consumer loop. Started
  // after this function returns, so an end the transport already knows reaches a built client.
  const sink: CodexFrameSink = {
    onFrame: handleFrame,
    onEnd(err) {
      if (err === undefined) {
        finish({ kind: 'eof' });
        return;
      }
      const causeToken = causeTokenOf(err);
      const spawnCause = causeToken === 'spawn_failed' ? spawnCauseOf(err) : undefined;
      finish({ kind: 'failed', causeToken, ...(spawnCause !== undefined ? { spawnCause } : {}) });
    },
  };
  queueMicrotask(() => {
    try {
      transport.start(sink);
    } catch (err) {
      sink.onEnd(err ?? new Error('start failed'));
    }
  });

  function listen(next: RpcListener<N>): void {
    listener = next;
    if (fence !== undefined) {
      const reason = fence;
      guarded(() => {
        next.onFence(reason);
      });
    }
    if (ended !== undefined) {
      const end = ended;
      guarded(() => {
        next.onEnd(end);
      });
    }
  }

  return {
    request,
    notify,
    listen,
    ended: endedPromise,
    get isEnded() {
      return ended !== undefined;
    },
    get isFenced() {
      return fence !== undefined;
    },
    get end() {
      return ended;
    },
    get fence() {
      return fence;
    },
    get pendingCount() {
      return pending.size;
    },
  };
}
