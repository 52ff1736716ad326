/**
 * `@relvo-labs/agent-provider/testing` (docs/spi.md §19): a deterministic scripted provider for runtime
 * tests and a conformance kit for adapters. Nothing here imports a test framework; the vitest
 * binding `describeProviderConformance` lives in `@relvo-labs/agent-provider/testing/vitest`.
 * Each value here is listed in the README; every type of these modules is public.
 */
export { createScriptedProvider } from './scripted/provider.js';
export { runProviderConformance } from './conformance/run.js';
export type {
  ScriptedController,
  ScriptedInterruptRecord,
  ScriptedSteerRecord,
  ScriptedProvider,
  ScriptedRunRecord,
} from './scripted/provider.js';
export type {
  ResolvedScriptedProviderOptions,
  ScriptStep,
  ScriptStepInput,
  ScriptedProviderOptions,
} from './scripted/steps.js';
export type {
  CheckStatus,
  ConformanceArea,
  ConformanceCheckResult,
  ConformanceDriver,
  ConformanceExercise,
  ConformanceHarness,
  ConformanceReport,
  ConformanceScenario,
  ConformanceSubject,
  NativeEffects,
} from './conformance/types.js';
