/**
 * `@relvo-labs/agent-provider/testing` (docs/spi.md §19): a deterministic scripted provider for runtime
 * tests and a conformance kit for adapters. Nothing here imports a test framework; the vitest
 * binding `describeProviderConformance` lives in `@relvo-labs/agent-provider/testing/vitest`.
 */
export {
  createScriptedProvider,
  MAX_DRAIN_PASSES,
  type ScriptedController,
  type ScriptedInterruptRecord,
  type ScriptedProvider,
  type ScriptedRunRecord,
} from './scripted/provider.js';
export { SCRIPTED_DISPOSE_REASON } from './scripted/session.js';
export {
  DEFAULT_SCRIPT,
  SCRIPTED_PROVIDER_VERSION,
  scriptStepSchema,
  scriptedProviderOptionsSchema,
  type ScriptStep,
  type ScriptStepInput,
  type ScriptedProviderOptions,
} from './scripted/steps.js';
export { runProviderConformance } from './conformance/run.js';
export { CONFORMANCE_CHECKS } from './conformance/checks.js';
export {
  CHECK_STATUSES,
  CONFORMANCE_AREAS,
  CONFORMANCE_EXERCISES,
  CONFORMANCE_SCENARIOS,
  type CheckStatus,
  type ConformanceArea,
  type ConformanceCheckResult,
  type ConformanceDriver,
  type ConformanceExercise,
  type ConformanceHarness,
  type ConformanceReport,
  type ConformanceScenario,
  type ConformanceSubject,
  type NativeEffects,
} from './conformance/types.js';
