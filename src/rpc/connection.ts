/**
 * One connection to `codex app-server`: the transport, its JSON-RPC client, and who hears the
 * inbound traffic. It is built before the handshake, which speaks through it; then a session
 * takes the inbound traffic over (`deliverTo`). Until then nothing is published: notifications
 * are ignored, server requests declined, drops and diagnostics discarded. The end of the stream
 * and a fence are facts of the connection, kept here and told to the session when it takes over.
 */
import { CODEX_NOTIFICATION, type DropReason, type FenceReason } from '../protocol/vocabulary.js';
import type { CodexResourceUsage, CodexTransport } from '../transport/types.js';
import {
  createJsonRpcClient,
  type JsonRpcClient,
  type RpcClock,
  type RpcDiagnostic,
  type RpcEnd,
  type ServerRequestOffer,
} from './client.js';

/** Who hears a connection's inbound traffic. Every call is made inside the read loop. */
export interface InboundTraffic {
  /** True takes the request (answered later through the offer); anything else declines it. */
  serverRequest(offer: ServerRequestOffer): boolean;
  notification(method: string, params: unknown): void;
  drop(reason: DropReason): void;
  diagnostic(diagnostic: RpcDiagnostic): void;
  end(end: RpcEnd): void;
  fence(reason: FenceReason): void;
}

/** The connection as the handshake and the session use it. */
export interface SessionConnection {
  request(method: string, params: unknown): Promise<unknown>;
  notify(method: string, params?: unknown): void;
}

const noop = (): void => undefined;
const TOKEN_USAGE_UPDATED: string = CODEX_NOTIFICATION.tokenUsageUpdated;

/** Inbound traffic before a session exists: nothing is published. */
const BEFORE_SESSION: InboundTraffic = {
  serverRequest: () => false,
  notification: noop,
  drop: noop,
  diagnostic: noop,
  end: noop,
  fence: noop,
};

export interface CodexConnectionOptions {
  /** Default per-request deadline; ≤0 or non-finite disables it. */
  readonly requestTimeoutMs: number;
  readonly clock?: RpcClock;
  /** Hears every notification before whoever takes the traffic (the host's `onRateLimits`). */
  readonly observe?: (method: string, params: unknown) => void;
}

export class CodexConnection implements SessionConnection {
  readonly #transport: CodexTransport;
  readonly #client: JsonRpcClient;
  #inbound: InboundTraffic = BEFORE_SESSION;
  #end: RpcEnd | undefined;
  #fence: FenceReason | undefined;
  #usageBeforeSession: unknown;

  constructor(transport: CodexTransport, options: CodexConnectionOptions) {
    this.#transport = transport;
    this.#client = createJsonRpcClient({
      transport,
      requestTimeoutMs: options.requestTimeoutMs,
      ...(options.clock !== undefined ? { clock: options.clock } : {}),
      onServerRequest: (offer) => this.#inbound.serverRequest(offer),
      onNotification: ({ method, params }) => {
        options.observe?.(method, params);
        // codex replays a resumed thread's last usage, possibly before a session exists
        if (this.#inbound === BEFORE_SESSION && method === TOKEN_USAGE_UPDATED) {
          this.#usageBeforeSession = params;
        }
        this.#inbound.notification(method, params);
      },
      onDrop: (reason) => {
        this.#inbound.drop(reason);
      },
      onDiagnostic: (diagnostic) => {
        this.#inbound.diagnostic(diagnostic);
      },
      onEnd: (end) => {
        this.#end = end;
        this.#inbound.end(end);
      },
      onFence: (reason) => {
        this.#fence ??= reason;
        this.#inbound.fence(reason);
      },
    });
  }

  /** How the inbound stream ended, once it has. */
  get end(): RpcEnd | undefined {
    return this.#end;
  }

  /** The params of the last `thread/tokenUsage/updated` heard before a session took over. */
  get usageBeforeSession(): unknown {
    return this.#usageBeforeSession;
  }

  /** Why the connection can no longer be trusted, once it cannot. */
  get fence(): FenceReason | undefined {
    return this.#fence;
  }

  request(method: string, params: unknown): Promise<unknown> {
    return this.#client.request(method, params);
  }

  notify(method: string, params?: unknown): void {
    this.#client.notify(method, params);
  }

  /**
   * From now on `inbound` hears the traffic. Like a settled promise, a connection that was
   * already fenced or has already ended tells its new listener so at once (fence first).
   */
  deliverTo(inbound: InboundTraffic): void {
    this.#inbound = inbound;
    if (this.#fence !== undefined) inbound.fence(this.#fence);
    if (this.#end !== undefined) inbound.end(this.#end);
  }

  /** Whether the connection holds the host's event loop open (a transport may not support it). */
  keepAlive(on: boolean): void {
    this.#transport.setKeepAlive?.(on);
  }

  /** Tears the transport down (idempotent, memoised, retryable: the transport's contract). */
  close(): Promise<void> {
    return this.#transport.close();
  }

  resourceUsage(): Promise<CodexResourceUsage | undefined> {
    return this.#transport.resourceUsage?.() ?? Promise.resolve(undefined);
  }
}
