/** Public constants of the Codex adapter. */

export const CODEX_PROVIDER_ID = 'codex';
export const CODEX_ADAPTER_VERSION = '0.1.0';
export const CODEX_ADAPTER_STATUS = 'live';

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
  '0.171.0',
] as const;
export type CodexSupportedAppServerVersion = (typeof CODEX_SUPPORTED_APP_SERVER_VERSIONS)[number];

export const CODEX_APP_SERVER_MIN_VERSION = '0.153.4';
export const CODEX_APP_SERVER_MAX_VERSION = '0.171.0';

/** Subcommand arguments placed after `extraArgs`. */
export const CODEX_APP_SERVER_ARGV = ['app-server', '--stdio'] as const;
export const CODEX_DEFAULT_EXECUTABLE = 'codex';

export const CODEX_DEFAULT_CLIENT_NAME = 'relvo_agent_runtime';
export const CODEX_CLIENT_TITLE = 'Relvo Agent Runtime';
export const CODEX_DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

export const CODEX_BRIDGED_APPROVAL = 'item/commandExecution/requestApproval';
export const CODEX_BRIDGED_QUESTION = 'item/tool/requestUserInput';

/** Every server-request method of the stable surface (the same in every reviewed release). */
export const CODEX_SERVER_REQUEST = [
  'item/commandExecution/requestApproval',
  'item/fileChange/requestApproval',
  'item/permissions/requestApproval',
  'item/tool/requestUserInput',
  'item/tool/call',
  'mcpServer/elicitation/request',
  'applyPatchApproval',
  'execCommandApproval',
  'account/chatgptAuthTokens/refresh',
  'attestation/generate',
] as const;
export type CodexServerRequestMethod = (typeof CODEX_SERVER_REQUEST)[number];

export function isPinnedServerRequest(method: string): method is CodexServerRequestMethod {
  return (CODEX_SERVER_REQUEST as readonly string[]).includes(method);
}

export const CODEX_SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
export type CodexSandboxMode = (typeof CODEX_SANDBOX_MODES)[number];

export const CODEX_BRIDGE_MODES = ['none', 'bridge'] as const;
export type CodexBridgeMode = (typeof CODEX_BRIDGE_MODES)[number];

/** Reason attached to a run ended by session disposal. */
export const CODEX_DISPOSED_REASON = 'codex provider session disposed';
