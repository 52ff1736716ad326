import type { AgentProvider, ProviderWorkspaceView } from '../../interfaces.js';
import type { JsonObject } from '../../json.js';
import type { RunSummary, TurnInput } from '../../schemas/turn.js';

/**
 * What the kit asks a harness to make the next native run do:
 * - `complete`: stream (whatever the descriptor declares), then succeed;
 * - `fail`: end failed;
 * - `hang`: stream, then stay running until interrupted or disposed;
 * - `approval` / `question`: raise one approval / one question or question set, wait for
 *   the answer, then stream and succeed.
 */
export const CONFORMANCE_SCENARIOS = ['complete', 'fail', 'hang', 'approval', 'question'] as const;
export type ConformanceScenario = (typeof CONFORMANCE_SCENARIOS)[number];

/** Capabilities a harness may declare it cannot exercise; each needs a stated reason. */
export const CONFORMANCE_EXERCISES = [...CONFORMANCE_SCENARIOS, 'dispose_failure'] as const;
export type ConformanceExercise = (typeof CONFORMANCE_EXERCISES)[number];

/** Counts of native effects, as the harness observes them below the provider. */
export interface NativeEffects {
  /** Native sessions / connections opened. */
  readonly sessions: number;
  /** Native runs (turns) started. */
  readonly runs: number;
  /** Native replies delivered for interactions. */
  readonly responses: number;
  /** Native interrupts sent. */
  readonly interrupts: number;
  /** Native teardowns that succeeded. */
  readonly disposals: number;
}

export interface ConformanceDriver {
  /**
   * Arranges that the next native run plays `scenario`. May return the turn input the kit
   * must use for that run (for providers whose input selects the script).
   */
  script(scenario: ConformanceScenario): TurnInput | undefined;
  /** Lets the provider make progress (answer handshakes, drain a scripted double). Called between waits. */
  pump?(): void;
  effects(): NativeEffects;
  /** Makes the next native teardown fail once (required unless `dispose_failure` is declared unexercisable). */
  failNextDispose?(): void;
  /** Harness-level verification after a check (e.g. every outbound frame was valid). */
  verify?(): string | undefined;
}

export interface ConformanceSubject {
  readonly provider: AgentProvider;
  readonly driver: ConformanceDriver;
  /** A valid session init; the kit supplies its own recording sink. */
  sessionInit(): { options: JsonObject; workspace: ProviderWorkspaceView };
}

export interface ConformanceHarness {
  /** A fresh provider under test with fresh per-test state. Called once per check. */
  create(): ConformanceSubject;
  /** Exercises the harness cannot drive, with the reason; their checks are reported skipped. */
  cannotExercise?: Partial<Record<ConformanceExercise, string>>;
  /** Strings the harness planted upstream (credentials, prompts) that must never be echoed. */
  secretMarkers?: readonly string[];
  /** Provider-native identifiers (thread/turn/item ids) that must never appear in any event. */
  nativeIdentifiers?: readonly string[];
  /** Upper bound for one wait, in milliseconds (default 2000). */
  waitMs?: number;
  /**
   * Per-run option values the provider accepts, for the `run.options` check of each declared
   * option (default: model `conformance-model`, effort `medium`, summary `concise`).
   */
  runOptions?: { model?: string; effort?: string; summary?: RunSummary };
}

export const CONFORMANCE_AREAS = [
  'descriptor',
  'session',
  'run',
  'events',
  'interactions',
  'secrecy',
  'errors',
] as const;
export type ConformanceArea = (typeof CONFORMANCE_AREAS)[number];

export const CHECK_STATUSES = ['passed', 'failed', 'skipped'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

export interface ConformanceCheckResult {
  readonly id: string;
  readonly area: ConformanceArea;
  readonly title: string;
  readonly status: CheckStatus;
  /** Why the check failed (status `failed`). */
  readonly failure?: string;
  /** Why the check was not exercised (status `skipped`). */
  readonly reason?: string;
}

export interface ConformanceReport {
  readonly providerId: string | undefined;
  readonly checks: readonly ConformanceCheckResult[];
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
}
