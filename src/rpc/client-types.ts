/**
 * The JSON-RPC client's seam: how its stream ends, who hears its inbound traffic, what it offers.
 */
import type { CauseToken, ThrownCauseToken } from '../shared/cause-token.js';
import type { TimerClock } from '../shared/unref-clock.js';
import type { CodexTransport, DropReason } from '../transport/types.js';
import type { UnclassifiableReason } from './frames.js';
import type { RpcDiagnostic, RpcFenceReason, ServerRequestHandler } from './server-requests.js';

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
export type RpcClock = TimerClock;

/** Who hears the inbound traffic. Every call is made inside the read loop. */
export interface RpcListener<N = RpcNotification> {
  readonly onServerRequest: ServerRequestHandler;
  readonly onNotification: (notification: N) => void;
  /** A dropped inbound frame; `detail` says why an `unclassifiable` frame was refused. */
  readonly onDrop: (reason: DropReason, detail?: UnclassifiableReason) => void;
  readonly onDiagnostic: (diagnostic: RpcDiagnostic) => void;
  readonly onEnd: (end: RpcEnd) => void;
  /** The connection can no longer be trusted; the session fails the active run. */
  readonly onFence: (reason: RpcFenceReason) => void;
}

/** The first listener is given with the options; `listen` hands the traffic to another. */
export interface JsonRpcClientOptions<N = RpcNotification> extends RpcListener<N> {
  readonly transport: CodexTransport;
  /** Default per-request deadline; ≤0 or non-finite disables it. */
  readonly requestTimeoutMs: number;
  /** Decodes a notification once, before any listener sees it (default: method and params). */
  readonly decode?: (method: string, params: unknown) => N;
  readonly clock?: RpcClock;
}

export interface RequestOptions {
  /** Overrides the client's default deadline for this request. */
  readonly timeoutMs?: number;
  /**
   * Stops waiting for the reply: the pending entry is removed and the request rejects with
   * `request_aborted` (the frame may have been read, so the outcome is unknown). With a signal
   * aborted already, nothing is written and it rejects the same way.
   */
  readonly signal?: AbortSignal;
}

export interface JsonRpcClient<N = RpcNotification> {
  request(method: string, params: unknown, options?: RequestOptions): Promise<unknown>;
  /** Fire-and-forget; silently dropped once the stream has ended. */
  notify(method: string, params?: unknown): void;
  /** Settles once, after `onEnd` has been called. */
  readonly ended: Promise<RpcEnd>;
  readonly isEnded: boolean;
  readonly isFenced: boolean;
  /** How the inbound stream ended, once it has. */
  readonly end: RpcEnd | undefined;
  /** Why the connection can no longer be trusted, once it cannot. */
  readonly fence: RpcFenceReason | undefined;
  readonly pendingCount: number;
  /** From now on `listener` hears the traffic; a fence, then an end, already reached are told at once. */
  listen(listener: RpcListener<N>): void;
}
