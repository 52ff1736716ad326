/**
 * `@relvo-labs/agent-provider-codex/demo-model`: the scripted model a program runs in
 * production — the CLI's demo and doctor's handshake — and no more: a Responses-API server on
 * 127.0.0.1 with its text and raw steps, the codex arguments and throw-away CODEX_HOME that point
 * codex at it, and the locator of the installed codex. An entry of its own, so that a program
 * needs none of the testing kit (ADR-0067); the testing entry exports the same things among others.
 */
export { locateCodexBinary, type CodexBinaryKind } from './testing/codex-binary.js';
export {
  codexConfigArgs,
  createIsolatedCodexHome,
  type IsolatedCodexHome,
} from './testing/codex-config.js';
export { ScriptedModelServer } from './testing/model-server.js';
export {
  rawStep,
  scriptedUsage,
  textStep,
  type RawStep,
  type SseEvent,
  type TextStep,
} from './testing/sse-script.js';
