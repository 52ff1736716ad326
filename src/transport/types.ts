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

export interface CodexTransport {
  /**
   * Write one frame. Synchronous; never throws. Returns `true` when the frame was written and
   * `false` when it was not (it cannot be serialised, or the transport is closed or its process
   * gone); the request then fails at once.
   */
  send(message: unknown): boolean;
  /**
   * Decoded inbound frames. Normal completion means end of stream; a rejection means the
   * transport failed (the error is a CodexTransportError where the cause is known).
   */
  readonly incoming: AsyncIterable<unknown>;
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
) => CodexTransport | Promise<CodexTransport>;
