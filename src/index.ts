export {
  codexAccountStatusSchema,
  type CodexAccountStatus,
  type ReadAccountInit,
} from './account.js';
export type { LoginInit, LogoutInit } from './login.js';
export type { ChatgptLoginEnd, ChatgptLoginInit, CodexChatgptLogin } from './chatgpt-login.js';
export {
  codexModelListSchema,
  codexModelSchema,
  type CodexModel,
  type CodexModelList,
  type ListModelsInit,
} from './models.js';
export {
  codexRateLimitsReadSchema,
  codexRateLimitsSchema,
  RATE_LIMITS_UNAVAILABLE_REASONS,
  type CodexRateLimits,
  type CodexRateLimitsListener,
  type CodexRateLimitsRead,
  type ReadRateLimitsInit,
} from './rate-limits.js';
export { CODEX_APP_SERVER_VERSION, CODEX_SUPPORTED_APP_SERVER_VERSIONS } from './constants.js';
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
export {
  codexProfile,
  type CodexProfile,
  type CodexProfileInit,
  type CodexProfileProviderOptions,
} from './profile.js';
export type { ReleaseSummary } from './session/abandoned.js';
export {
  createCodexStdioTransport,
  type CodexStdioTransport,
  type CodexStdioTransportOptions,
} from './transport/stdio.js';
export { fromIterableTransport } from './transport/iterable.js';
export {
  CodexTransportError,
  isCodexTransportError,
  type AnyCodexTransport,
  type CodexExitStatus,
  type CodexFrameSink,
  type CodexIterableTransport,
  type CodexResourceUsage,
  type CodexTransport,
  type CodexTransportErrorCode,
  type CodexTransportFactory,
  type CodexTransportParams,
  type DropReason,
} from './transport/types.js';
