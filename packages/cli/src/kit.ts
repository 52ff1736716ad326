/**
 * The parts of the provider's testing kit the CLI runs in production: the binary locator, and
 * the scripted model with the throw-away CODEX_HOME that the demo and doctor's handshake use.
 * This is the only module that imports that subpath: the build bundles it into dist/, so the
 * published CLI never loads `@relvo-labs/agent-provider-codex/testing` (see ADR-0021).
 */
export {
  codexConfigArgs,
  createIsolatedCodexHome,
  locateCodexBinary,
  rawStep,
  ScriptedModelServer,
  scriptedUsage,
  textStep,
  type CodexBinaryKind,
  type RawStep,
  type SseEvent,
  type TextStep,
} from '@relvo-labs/agent-provider-codex/testing';
