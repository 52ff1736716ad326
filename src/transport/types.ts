/**
 * The seam between the provider and a connection to `codex app-server`.
 * The production implementation is the stdio transport; hosts may inject their own.
 */

export {
  CodexTransportError,
  isCodexTransportError,
  type CodexTransportErrorCode,
} from '../shared/codex-error.js';

/** Why an inbound line or frame was dropped. Bounded tokens only: never payload text. */
// prettier-ignore
export type DropReason =
  | 'oversized' | 'malformed' | 'unclassifiable' | 'unknown_reply' | 'duplicate_server_request';

/** Resource usage of the owned process group (leader plus recorded members). */
export interface CodexResourceUsage {
  /** Resident set size in bytes, summed over the processes that could be measured. */
  readonly rssBytes: number;
  /** CPU percentage summed over the measured processes (pidusage semantics). */
  readonly cpuPercent: number;
  /** How many processes were measured. */
  readonly processes: number;
}

/** Where a transport pushes what it reads. Frames are pushed in order; `onEnd` comes once, last. */
export interface CodexFrameSink {
  /** One decoded inbound frame. */
  onFrame(frame: unknown): void;
  /**
   * The inbound stream ended: without an argument normally, else with why it failed (a
   * CodexTransportError where the cause is known; anything else is reduced to a cause token).
   */
  onEnd(error?: unknown): void;
}

/**
 * The push seam (like the MCP SDK's Transport): the client starts it once with its sink and the
 * transport calls the sink directly for every frame it decodes.
 */
export interface CodexTransport {
  /** Begin delivery to `sink`; called once. What arrived before is delivered first. */
  start(sink: CodexFrameSink): void;
  /**
   * Write one frame. Resolves once the write is accepted; when the pipe is full it waits for it
   * to drain, within a deadline. Rejects with a CodexTransportError: `write_refused` (nothing was
   * written: unserialisable, or the transport closed), `write_interrupted` (the pipe closed
   * while the frame waited), `write_timeout` (the pipe did not drain in time).
   */
  send(message: unknown): Promise<void>;
  /** Idempotent, memoised while in flight, retryable after a failure. */
  close(): Promise<void>;
  /**
   * Optional: whether the connection keeps the host's event loop alive (default: it does). The
   * session turns it off while idle, so a host that drops a session can still exit.
   */
  setKeepAlive?(keepAlive: boolean): void;
  /** Optional: resource usage of the owned process group. */
  resourceUsage?(): Promise<CodexResourceUsage>;
  /** Optional: how the process exited, once it has (names why a handshake failed). */
  exitStatus?(): CodexExitStatus | undefined;
}

/**
 * A host's transport that hands frames over as an async iterable (read through
 * `fromIterableTransport`). `send` is synchronous, never throws, and says whether it wrote.
 */
export interface CodexIterableTransport {
  send(message: unknown): boolean;
  /** Completion is end of stream; a rejection is a failure. */
  readonly incoming: AsyncIterable<unknown>;
  close(): Promise<void>;
  setKeepAlive?(keepAlive: boolean): void;
  resourceUsage?(): Promise<CodexResourceUsage>;
  exitStatus?(): CodexExitStatus | undefined;
}

/** What a host may give: a push transport, or an iterable one the client adapts. */
export type AnyCodexTransport = CodexTransport | CodexIterableTransport;

/** How the transport's process ended: an exit code, or the signal that killed it. */
export interface CodexExitStatus {
  readonly code: number | null;
  readonly signal: string | null;
}

export interface CodexTransportParams {
  /** The workspace root; the child's working directory. */
  readonly cwd: string;
}

export type CodexTransportFactory = (
  params: CodexTransportParams,
) => AnyCodexTransport | Promise<AnyCodexTransport>;
