/**
 * The seam between the provider and a connection to `codex app-server`.
 * The production implementation is the stdio transport; hosts may inject their own.
 */

/** Why an inbound line or frame was dropped. Bounded tokens only: never payload text. */
export const DROP_REASONS = [
  'oversized',
  'malformed',
  'unclassifiable',
  'unknown_reply',
  'duplicate_server_request',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

export const CODEX_TRANSPORT_ERROR_CODES = [
  'spawn_failed',
  'stdout_error',
  'child_did_not_exit',
  'process_group_did_not_exit',
  'group_cleanup_unverified',
] as const;
export type CodexTransportErrorCode = (typeof CODEX_TRANSPORT_ERROR_CODES)[number];

/** A typed transport failure. `message` is fixed per code and never carries child output. */
export class CodexTransportError extends Error {
  override readonly name = 'CodexTransportError';
  readonly code: CodexTransportErrorCode;
  /** Bounded detail tokens (cause token, discovery-doubt token); never paths or output. */
  readonly detail: Readonly<Record<string, string | number | boolean>>;

  constructor(
    code: CodexTransportErrorCode,
    detail: Readonly<Record<string, string | number | boolean>> = {},
    options?: { cause?: unknown },
  ) {
    super(`codex transport: ${code}`, options);
    this.code = code;
    this.detail = detail;
  }
}

export function isCodexTransportError(value: unknown): value is CodexTransportError {
  return value instanceof CodexTransportError;
}

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
  /** Write one frame. Synchronous; never throws; a no-op after close or exit. */
  send(message: unknown): void;
  /**
   * Decoded inbound frames. Normal completion means end of stream; a rejection means the
   * transport failed (the error is a CodexTransportError where the cause is known).
   */
  readonly incoming: AsyncIterable<unknown>;
  /** Idempotent, memoised while in flight, retryable after a failure. */
  close(): Promise<void>;
  /** Optional: resource usage of the owned process group. */
  resourceUsage?(): Promise<CodexResourceUsage>;
}

export interface CodexTransportParams {
  /** The workspace root; the child's working directory. */
  readonly cwd: string;
}

export type CodexTransportFactory = (
  params: CodexTransportParams,
) => CodexTransport | Promise<CodexTransport>;
