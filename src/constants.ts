/** Product constants of the Codex adapter: identity, reviewed releases, defaults. */

import { createRequire } from 'node:module';

export const CODEX_PROVIDER_ID = 'codex';
/**
 * This package's own version, read from its package.json (one folder up from both `src/` and
 * `dist/`): the descriptor and `initialize` report it.
 */
export const CODEX_ADAPTER_VERSION = (
  createRequire(import.meta.url)('../package.json') as { version: string }
).version;

/**
 * The protocol baseline: the release the repository pins (devDependency), records its
 * transcripts from and validates every outbound frame against (fixtures/compat/<version>.md).
 */
export const CODEX_APP_SERVER_VERSION = '0.171.0';

/**
 * The reviewed releases, a finite allowlist and not a numeric range: a release inside the
 * interval that was not reviewed is refused like any other.
 */
export const CODEX_SUPPORTED_APP_SERVER_VERSIONS = [
  '0.153.4',
  '0.154.0',
  '0.155.0',
  '0.155.1',
  '0.156.0',
  '0.156.1',
  '0.157.0',
  '0.157.1',
  '0.158.0',
  '0.159.0',
  '0.159.1',
  '0.159.2',
  '0.159.3',
  '0.160.0',
  '0.160.1',
  '0.161.0',
  '0.162.0',
  '0.162.1',
  '0.163.0',
  '0.164.0',
  '0.165.0',
  '0.166.0',
  '0.167.2',
  '0.168.0',
  '0.169.0',
  '0.169.1',
  '0.171.0',
] as const;
export type CodexSupportedAppServerVersion = (typeof CODEX_SUPPORTED_APP_SERVER_VERSIONS)[number];

export const CODEX_APP_SERVER_MIN_VERSION = '0.153.4';
export const CODEX_APP_SERVER_MAX_VERSION = '0.171.0';

export const CODEX_DEFAULT_EXECUTABLE = 'codex';

export const CODEX_DEFAULT_CLIENT_NAME = 'relvo_agent_runtime';
export const CODEX_CLIENT_TITLE = 'Relvo Agent Runtime';
export const CODEX_DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

/**
 * Stall watchdog (ADR-0008): how long a turn may wait on codex or the model with no frame.
 * Above codex's own stream idle timeout (300 s), so codex's classified failure of a stalled
 * stream always comes first; it catches what codex never times out (a model that accepts the
 * request and sends no headers) and a frozen app-server.
 */
export const CODEX_DEFAULT_STALL_TIMEOUT_MS = 330_000;
/** How long a stalled turn may take to complete after our `turn/interrupt` before the session is fenced. */
export const CODEX_DEFAULT_STALL_GRACE_MS = 5_000;

/** Reason attached to a run ended by session disposal. */
export const CODEX_DISPOSED_REASON = 'codex provider session disposed';

/**
 * The longest turn input codex accepts, in Unicode code points (measured on 0.156.1 and 0.171.0:
 * 1,048,576 accepted, 1,048,577 refused with -32602 `input_too_large`, for ASCII, 2-byte and
 * astral characters alike). Checked before anything is sent.
 */
export const CODEX_MAX_INPUT_CHARS = 1_048_576;
