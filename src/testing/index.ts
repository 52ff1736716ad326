/**
 * `@relvo-labs/agent-provider-codex/testing`: helpers for credential-free, network-free tests
 * against a real codex binary. Nothing here imports a test framework.
 */
export {
  locateCodexBinary,
  requireCodexBinary,
  type CodexBinary,
  type CodexBinaryKind,
  type CodexBinaryNotFound,
  type CodexNotFoundReason,
  type LocateCodexOptions,
} from './codex-binary.js';
export {
  codexConfigArgs,
  createIsolatedCodexHome,
  SCRIPTED_MODEL,
  DEFAULT_REASONING_EFFORT,
  SCRIPTED_PROVIDER,
  type CodexConfigArgsOptions,
  type IsolatedCodexHome,
} from './codex-config.js';
export {
  ScriptedModelServer,
  functionCallOutput,
  requestInputItems,
  type ModelServerOptions,
  type RecordedRequest,
} from './model-server.js';
export {
  connectScriptedModel,
  ScriptedModelClient,
  ScriptedModelControlError,
  type ConnectOptions,
  type ScriptedModel,
} from './model-client.js';
export { scriptedStepSchema, type ScriptedModelStatus } from './model-control-schemas.js';
export { runScriptedModelProcess, type ScriptedModelProcessIo } from './model-process.js';
export {
  scriptedModelBin,
  startScriptedModelProcess,
  type ScriptedModelProcess,
  type StartScriptedModelOptions,
} from './model-spawn.js';
export {
  reasoningStep,
  updatePlanStep,
  type ReasoningStepOptions,
  type ScriptedPlanStep,
} from './feature-steps.js';
export {
  execCommandStep,
  functionCallStep,
  httpErrorStep,
  mcpToolCallStep,
  rawStep,
  requestPermissionsStep,
  responseFailedStep,
  scriptedUsage,
  textStep,
  type ExecCommandOptions,
  type FunctionCallStep,
  type HttpErrorStep,
  type RawStep,
  type ScriptedStep,
  type ScriptedUsage,
  type SseEvent,
  type StreamEnding,
  type TextStep,
} from './sse-script.js';
export {
  parseTranscript,
  PLACEHOLDERS,
  restorePlaceholders,
  type PlaceholderValues,
  type TranscriptLine,
} from './transcript.js';
