/**
 * The names and numbers of codex's wire the adapter writes or matches: the methods it sends,
 * the server requests it answers and bridges, and the JSON-RPC error codes. Data only; it imports
 * nothing, so every layer may depend on it. The notifications the adapter reads are decoded in
 * `inbound.ts`; the published codes are in `provider-codes.ts`.
 */

/** Requests and notifications the adapter sends. */
export const CODEX_CLIENT_METHOD = {
  initialize: 'initialize',
  initialized: 'initialized',
  threadStart: 'thread/start',
  threadResume: 'thread/resume',
  threadFork: 'thread/fork',
  configRead: 'config/read',
  turnStart: 'turn/start',
  turnInterrupt: 'turn/interrupt',
  turnSteer: 'turn/steer',
  accountRead: 'account/read',
  modelList: 'model/list',
  accountRateLimitsRead: 'account/rateLimits/read',
  threadInjectItems: 'thread/inject_items',
  threadRevert: 'thread/revert',
  threadTurnsList: 'thread/turns/list',
  accountLoginStart: 'account/login/start',
  accountLogout: 'account/logout',
  accountLoginCancel: 'account/login/cancel',
} as const;

/** The `sandbox` values `thread/start` takes. */
export const CODEX_SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
export type CodexSandboxMode = (typeof CODEX_SANDBOX_MODES)[number];

/** Every server-request method of the stable surface (the same in every reviewed release). */
// prettier-ignore
export const CODEX_SERVER_REQUEST = [
  'item/commandExecution/requestApproval', 'item/fileChange/requestApproval',
  'item/permissions/requestApproval', 'item/tool/requestUserInput', 'item/tool/call',
  'mcpServer/elicitation/request', 'applyPatchApproval', 'execCommandApproval',
  'account/chatgptAuthTokens/refresh', 'attestation/generate',
] as const;
export type CodexServerRequestMethod = (typeof CODEX_SERVER_REQUEST)[number];

/** A diagnostic may name a server-request method only when it is one of these (docs/behaviour.md §9.9). */
export function isPinnedServerRequest(method: string): method is CodexServerRequestMethod {
  return (CODEX_SERVER_REQUEST as readonly string[]).includes(method);
}

/** The server requests that can become neutral interactions. */
export const CODEX_BRIDGED_APPROVAL = 'item/commandExecution/requestApproval';
export const CODEX_BRIDGED_QUESTION = 'item/tool/requestUserInput';
export const CODEX_BRIDGED_FILE_CHANGE = 'item/fileChange/requestApproval';
export const CODEX_BRIDGED_PERMISSIONS = 'item/permissions/requestApproval';
export const CODEX_BRIDGED_ELICITATION = 'mcpServer/elicitation/request';
/** A call of a host tool declared with `thread/start.dynamicTools` (experimental API). */
export const CODEX_BRIDGED_TOOL_CALL = 'item/tool/call';

/** The numeric JSON-RPC error codes the adapter classifies or answers with. */
export const JSON_RPC_ERROR = {
  overloaded: -32001,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  parseError: -32700,
} as const;
