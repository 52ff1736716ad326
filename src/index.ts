export {
  codexAccountStatusSchema,
  type CodexAccountStatus,
  type ReadAccountInit,
} from './account.js';
export {
  CODEX_ADAPTER_STATUS,
  CODEX_ADAPTER_VERSION,
  CODEX_APP_SERVER_MAX_VERSION,
  CODEX_APP_SERVER_MIN_VERSION,
  CODEX_APP_SERVER_VERSION,
  CODEX_DEFAULT_EXECUTABLE,
  CODEX_MAX_INPUT_CHARS,
  CODEX_PROVIDER_ID,
  CODEX_SUPPORTED_APP_SERVER_VERSIONS,
} from './constants.js';
export {
  CODEX_APP_SERVER_ARGV,
  CODEX_BRIDGED_APPROVAL,
  CODEX_BRIDGED_QUESTION,
  CODEX_SERVER_REQUEST,
  UPSTREAM_PROVIDER_CODES,
} from './protocol/vocabulary.js';
export {
  createCodexProvider,
  type CodexProvider,
  type CodexProviderFactory,
  type CodexProviderSession,
  type CodexSessionInit,
} from './provider.js';
export {
  codexProviderOptionsSchema,
  codexSessionOptionsSchema,
  type CodexProviderOptions,
  type CodexSessionOptions,
} from './options.js';
export { CODEX_INHERITED_ENV, COMMAND_ENV_EXCLUDES } from './transport/environment.js';
export type { ReleaseSummary } from './session/abandoned.js';
export { isCompatibleCodexUserAgent } from './session/version-gate.js';
export {
  createCodexStdioTransport,
  type CodexStdioTransport,
  type CodexStdioTransportOptions,
} from './transport/stdio.js';
export {
  CodexTransportError,
  isCodexTransportError,
  type CodexExitStatus,
  type CodexResourceUsage,
  type CodexTransport,
  type CodexTransportErrorCode,
  type CodexTransportFactory,
  type CodexTransportParams,
  type DropReason,
} from './transport/types.js';
