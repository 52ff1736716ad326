/**
 * The JSON-RPC client over a `CodexTransport` (docs/behaviour.md §4). Owns outbound ids and
 * deadlines, routes inbound frames, and reduces everything it reports to bounded tokens.
 */
import type {
  CauseToken,
  ThrownCauseToken,
  DropReason,
  FenceReason,
  UnclassifiableReason,
} from '../protocol/vocabulary.js';
import { causeTokenOf, spawnCauseOf } from '../shared/cause-token.js';
import { callSafely } from '../shared/call-safely.js';
import { FrameQueue } from '../transport/frame-queue.js';
import type { CodexTransport } from '../transport/types.js';
import {
  CodexRpcError,
  connectionClosedRejection,
  wireRejection,
  writeFailedRejection,
} from './errors.js';
import { classifyFrame } from './frames.js';
import {
  createServerRequestLedger,
  type RpcDiagnostic,
  type ServerRequestHandler,
} from './server-requests.js';

export type { RpcDiagnostic, ServerRequestHandler, ServerRequestOffer } from './server-requests.js';

/** How the inbound stream ended: normal completion, or a failure reduced to a cause token. */
export type RpcEnd =
  | { readonly kind: 'eof' }
  | {
      readonly kind: 'failed';
      readonly causeToken: CauseToken;
      /** Why a `spawn_failed` transport could not start its process (ENOENT, EACCES, …). */
      readonly spawnCause?: ThrownCauseToken;
    };

export interface RpcNotification {
  readonly method: string;
  readonly params: unknown;
}

/** Injectable timers; the default unrefs every timer so a deadline never keeps a process alive. */
export interface RpcClock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface JsonRpcClientOptions {
  readonly transport: CodexTransport;
  /** Default per-request deadline; ≤0 or non-finite disables it. */
  readonly requestTimeoutMs: number;
  readonly onServerRequest: ServerRequestHandler;
  readonly onNotification: (notification: RpcNotification) => void;
  /** A dropped inbound frame; `detail` says why an `unclassifiable` frame was refused. */
  readonly onDrop: (reason: DropReason, detail?: UnclassifiableReason) => void;
  readonly onDiagnostic: (diagnostic: RpcDiagnostic) => void;
  readonly onEnd: (end: RpcEnd) => void;
  /** The connection can no longer be trusted; the session fails the active run. */
  readonly onFence: (reason: FenceReason) => void;
  readonly clock?: RpcClock;
}

export interface RequestOptions {
  /** Overrides the client's default deadline for this request. */
  readonly timeoutMs?: number;
}

export interface JsonRpcClient {
  request(method: string, params: unknown, options?: RequestOptions): Promise<unknown>;
  /** Fire-and-forget; silently dropped once the stream has ended. */
  notify(method: string, params?: unknown): void;
  /** Settles once, after `onEnd` has been called. */
  readonly ended: Promise<RpcEnd>;
  readonly isEnded: boolean;
  readonly isFenced: boolean;
  readonly pendingCount: number;
}

// setTimeout rejects delays above a signed 32-bit millisecond count (it fires at once).
const MAX_TIMER_MS = 2_147_483_647;

const defaultClock: RpcClock = {
  setTimeout(callback, ms) {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return timer;
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

interface Pending {
  readonly method: string;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
  timer: unknown;
}

export function createJsonRpcClient(options: JsonRpcClientOptions): JsonRpcClient {
  const { transport } = options;
  const clock = options.clock ?? defaultClock;
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let isEnded = false;
  let isFenced = false;
  let resolveEnded: (end: RpcEnd) => void = () => undefined;
  const ended = new Promise<RpcEnd>((resolve) => {
    resolveEnded = resolve;
  });

  // A failing diagnostic sink must not disturb the connection.
  function diagnose(diagnostic: RpcDiagnostic): void {
    callSafely(() => {
      options.onDiagnostic(diagnostic);
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
      transport.send(frame);
    },
    handler: options.onServerRequest,
    drop: (reason) => {
      guarded(() => {
        options.onDrop(reason);
      });
    },
    diagnose,
    fence: (reason) => {
      isFenced = true;
      guarded(() => {
        options.onFence(reason);
      });
    },
  });

  function settle(id: number): Pending | undefined {
    const entry = pending.get(id);
    if (entry === undefined) return undefined;
    pending.delete(id);
    if (entry.timer !== undefined) clock.clearTimeout(entry.timer);
    return entry;
  }

  function deadlineFor(requestOptions: RequestOptions | undefined): number | undefined {
    const ms = requestOptions?.timeoutMs ?? options.requestTimeoutMs;
    if (!Number.isFinite(ms) || ms <= 0) return undefined;
    return Math.min(ms, MAX_TIMER_MS);
  }

  function request(
    method: string,
    params: unknown,
    requestOptions?: RequestOptions,
  ): Promise<unknown> {
    if (isEnded) return Promise.reject(connectionClosedRejection(method));
    const id = nextId;
    nextId += 1;
    return new Promise<unknown>((resolve, reject) => {
      const entry: Pending = { method, resolve, reject, timer: undefined };
      pending.set(id, entry);
      const ms = deadlineFor(requestOptions);
      if (ms !== undefined) {
        entry.timer = clock.setTimeout(() => {
          if (settle(id) === undefined) return;
          reject(new CodexRpcError('request_timeout', `codex ${method} timed out`));
        }, ms);
      }
      let written: unknown;
      try {
        written = transport.send(params === undefined ? { id, method } : { id, method, params });
      } catch (err) {
        // a host transport broke the never-throws contract: do not leave the entry pending
        settle(id);
        throw err;
      }
      // the frame never left (unserialisable, pipe gone): say so now, not at the deadline
      if (written === false && settle(id) !== undefined) reject(writeFailedRejection(method));
    });
  }

  function notify(method: string, params?: unknown): void {
    if (isEnded) return;
    transport.send(params === undefined ? { method } : { method, params });
  }

  /** Handles one frame; true when it was a notification (nothing awaited can have resumed). */
  function handleFrame(raw: unknown): boolean {
    const frame = classifyFrame(raw);
    switch (frame.kind) {
      case 'unclassifiable':
        guarded(() => {
          options.onDrop('unclassifiable', frame.reason);
        });
        return false;
      case 'notification':
        try {
          options.onNotification({ method: frame.method, params: frame.params });
        } catch {
          diagnose({ token: 'callback_failed', level: 'warning' });
        }
        return true;
      case 'request':
        ledger.receive(frame.id, frame.method, frame.params);
        return false;
      case 'response':
      case 'error': {
        // Our ids are numbers; a string id (even "1") names no pending request.
        const entry = typeof frame.id === 'number' ? settle(frame.id) : undefined;
        if (entry === undefined) {
          guarded(() => {
            options.onDrop('unknown_reply');
          });
          return false;
        }
        if (frame.kind === 'response') entry.resolve(frame.result);
        else entry.reject(wireRejection(entry.method, frame.error));
        return false;
      }
    }
  }

  /**
   * Our own queue is drained a burst at a time: a run of notifications is handled in one
   * synchronous pass, not one await per frame. After any other frame the loop yields once,
   * exactly as `for await` would, so whatever awaited a reply (binding a turn, say) resumes
   * before the frames behind it are routed.
   */
  async function drain(queue: FrameQueue): Promise<void> {
    for (
      let batch = await queue.nextBatch();
      batch !== undefined;
      batch = await queue.nextBatch()
    ) {
      for (let i = 0; i < batch.length; i += 1) {
        if (!handleFrame(batch[i]) && i + 1 < batch.length) await Promise.resolve();
      }
    }
  }

  function finish(end: RpcEnd): void {
    if (isEnded) return;
    isEnded = true;
    for (const id of [...pending.keys()]) {
      const entry = settle(id);
      entry?.reject(
        new CodexRpcError('connection_lost', `codex connection lost during ${entry.method}`),
      );
    }
    guarded(() => {
      options.onEnd(end);
    });
    resolveEnded(end);
  }

  async function pump(): Promise<void> {
    try {
      const incoming = transport.incoming;
      if (incoming instanceof FrameQueue) await drain(incoming);
      else for await (const raw of incoming) handleFrame(raw);
    } catch (err) {
      const causeToken = causeTokenOf(err);
      const spawnCause = causeToken === 'spawn_failed' ? spawnCauseOf(err) : undefined;
      finish({ kind: 'failed', causeToken, ...(spawnCause !== undefined ? { spawnCause } : {}) });
      return;
    }
    finish({ kind: 'eof' });
  }

  void pump();

  return {
    request,
    notify,
    ended,
    get isEnded() {
      return isEnded;
    },
    get isFenced() {
      return isFenced;
    },
    get pendingCount() {
      return pending.size;
    },
  };
}
