/**
 * One connection to `codex app-server`: the transport and its JSON-RPC client, which decodes
 * every notification once (`src/protocol/inbound.ts`) and owns how the stream ended and whether
 * it is fenced. It is built before the handshake, which speaks through it; until a session takes
 * the inbound traffic over (`deliverTo`), nothing is published: notifications are ignored
 * (but for the thread's usage, which codex replays on resume), server requests declined, drops
 * and diagnostics discarded.
 */
import { decodeNotification, type InboundNotification } from '../protocol/inbound.js';
import type { OutboundMethod, OutboundParams, OutboundResult } from '../protocol/outbound.js';
import type { AnyCodexTransport, CodexResourceUsage } from '../transport/types.js';
import {
  createJsonRpcClient,
  type JsonRpcClient,
  type RpcClock,
  type RpcEnd,
  type RpcFenceReason,
  type RpcListener,
  type RequestOptions,
} from './client.js';
import { checkedRequest, type TypedRequest } from './requests.js';

/** Who hears a connection's inbound traffic, decoded. Every call is made inside the read loop. */
export type InboundTraffic = RpcListener<InboundNotification>;

/** The connection as the handshake and the session use it. */
export interface SessionConnection {
  /** A request of the outbound map; its reply is checked (`reply_invalid` when it fails). */
  readonly request: TypedRequest;
  notify(method: string, params?: unknown): void;
}

export type ThreadUsageUpdate = Extract<
  InboundNotification,
  { method: 'thread/tokenUsage/updated' }
>;

const noop = (): void => undefined;

/** Inbound traffic before a session exists: nothing is published; the last usage is kept. */
class BeforeSession implements InboundTraffic {
  lastUsage: ThreadUsageUpdate | undefined;
  readonly onServerRequest = (): boolean => false;
  readonly onNotification = (notification: InboundNotification): void => {
    // codex replays a resumed thread's last usage, possibly before a session exists
    if (notification.method === 'thread/tokenUsage/updated') this.lastUsage = notification;
  };
  readonly onDrop = noop;
  readonly onDiagnostic = noop;
  readonly onEnd = noop;
  readonly onFence = noop;
}

export interface CodexConnectionOptions {
  /** Default per-request deadline; ≤0 or non-finite disables it. */
  readonly requestTimeoutMs: number;
  readonly clock?: RpcClock;
}

export class CodexConnection implements SessionConnection {
  readonly #transport: AnyCodexTransport;
  readonly #client: JsonRpcClient<InboundNotification>;
  readonly #beforeSession = new BeforeSession();

  constructor(transport: AnyCodexTransport, options: CodexConnectionOptions) {
    this.#transport = transport;
    this.#client = createJsonRpcClient<InboundNotification>({
      transport,
      requestTimeoutMs: options.requestTimeoutMs,
      decode: decodeNotification,
      ...(options.clock !== undefined ? { clock: options.clock } : {}),
      onServerRequest: this.#beforeSession.onServerRequest,
      onNotification: this.#beforeSession.onNotification,
      onDrop: noop,
      onDiagnostic: noop,
      onEnd: noop,
      onFence: noop,
    });
  }

  /** How the inbound stream ended, once it has. */
  get end(): RpcEnd | undefined {
    return this.#client.end;
  }

  /** Why the connection can no longer be trusted, once it cannot. */
  get fence(): RpcFenceReason | undefined {
    return this.#client.fence;
  }

  /** The last `thread/tokenUsage/updated` heard before a session took over. */
  get usageBeforeSession(): ThreadUsageUpdate | undefined {
    return this.#beforeSession.lastUsage;
  }

  readonly request = <Method extends OutboundMethod>(
    method: Method,
    params: OutboundParams<Method>,
    options?: RequestOptions,
  ): Promise<OutboundResult<Method>> =>
    checkedRequest(
      (name, body, opts) => this.#client.request(name, body, opts),
      method,
      params,
      options,
    );

  notify(method: string, params?: unknown): void {
    this.#client.notify(method, params);
  }

  /**
   * From now on `inbound` hears the traffic. Like a settled promise, a connection that was
   * already fenced or has already ended tells its new listener so at once (fence first).
   */
  deliverTo(inbound: InboundTraffic): void {
    this.#client.listen(inbound);
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
