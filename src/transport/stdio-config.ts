/**
 * What a host may set on the stdio transport, and the check of it: the argument vector codex is
 * started with, the options, and the numbers' bounds (refused, typed, before a spawn).
 */
import { z } from 'zod';
import { codexRejection } from '../shared/codex-error.js';
import { issuePaths } from '../shared/issue-paths.js';
import type { ProcProbe } from './proc-probe.js';
import type { TeardownClock } from './teardown.js';
import type {
  CodexResourceUsage,
  CodexTransport,
  CodexTransportParams,
  DropReason,
} from './types.js';

/** Subcommand arguments placed after `extraArgs`. */
export const CODEX_APP_SERVER_ARGV = ['app-server', '--stdio'] as const;

export interface CodexStdioTransportOptions extends CodexTransportParams {
  /** Binary to spawn (default `'codex'`). Spawned with an argument vector, never a shell. */
  readonly executable?: string;
  /** Leading arguments, before `app-server --stdio`. */
  readonly extraArgs?: readonly string[];
  /**
   * Child environment (default: the host's `process.env`). It replaces the inherited one; the
   * transport always adds `RELVO_CODEX_OWNER` (ADR-0006).
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly closeGraceMs?: number;
  readonly killGraceMs?: number;
  readonly exitDrainMs?: number;
  /** How long a full stdin pipe may take to drain before the frame waiting on it fails (30 s). */
  readonly drainTimeoutMs?: number;
  /**
   * Start the app-server through `setpriv --pdeathsig KILL` so the kernel kills it when the host
   * dies without running any handler (default true; Linux with util-linux setpriv only, else
   * ignored). See ADR-0010.
   */
  readonly parentDeathSignal?: boolean;
  /** Spawn as leader of its own process group (default true, except on win32). */
  readonly useProcessGroup?: boolean;
  readonly onDrop?: (reason: DropReason) => void;
  /** Line bound in UTF-16 code units (default 4,000,000). */
  readonly maxLineLength?: number;
}

/** Internal seams; not part of the package entry. */
export interface StdioTransportInternals {
  readonly probe?: ProcProbe;
  readonly clock?: TeardownClock;
}

export interface CodexStdioTransport extends CodexTransport {
  resourceUsage(): Promise<CodexResourceUsage>;
  /** The value of `RELVO_CODEX_OWNER` every process of this transport carries. */
  readonly ownerId: string;
  /** Whether the app-server was started with a parent-death signal (ADR-0010). */
  readonly parentDeathSignal: boolean;
  setKeepAlive(keepAlive: boolean): void;
}

const graceMs = z.number().int().nonnegative().max(2_147_483_647).optional();

/** The numbers a host may set: durations ≥ 0 and a positive line bound (never NaN or ±Infinity). */
const stdioNumbersSchema = z.looseObject({
  closeGraceMs: graceMs,
  killGraceMs: graceMs,
  exitDrainMs: graceMs,
  drainTimeoutMs: graceMs,
  maxLineLength: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});

/** Refuses a configuration whose numbers are not usable, before anything is spawned. */
export function checkStdioConfig(config: CodexStdioTransportOptions): void {
  const checked = stdioNumbersSchema.safeParse(config);
  if (!checked.success) {
    throw codexRejection('invalid_request', 'invalid codex stdio transport configuration', {
      providerCode: 'invalid_options',
      details: { issues: issuePaths(checked.error, 'config') },
    });
  }
}
