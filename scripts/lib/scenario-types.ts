/**
 * What a recorded scenario is: thread settings, the scripted model steps, the client's turns
 * (with their answers, steers and interrupts) and the second process of a resume or fork. Apart
 * from the scenario lists so the recorder and every family of scenarios share one definition.
 */
import type { ScriptedStep } from '../../src/testing/index.js';
import type { AppServerDriver, Frame } from './app-server-driver.js';

/** What the client writes back to a server request (the runner adds the id). */
export type ServerRequestAnswer =
  { readonly result: unknown } | { readonly error: { code: number; message: string } };

export interface TurnPlan {
  readonly text: string;
  /** The native `turn/start` input when it is more than `text` (`<workspace>` is substituted). */
  readonly input?: readonly Readonly<Record<string, unknown>>[];
  /** Answers every server request during the turn; unanswered methods get -32601. */
  readonly answer?: (request: Frame) => ServerRequestAnswer | undefined;
  /** Send turn/interrupt once this many agentMessage deltas have arrived. */
  readonly interruptAfterDeltas?: number;
  /** More `turn/start` members (`model`, `effort`, `summary`, `outputSchema`). */
  readonly params?: Readonly<Record<string, unknown>>;
  /** Send `turn/steer` with this text (expectedTurnId: the turn) once the first delta arrived. */
  readonly steer?: string;
  /** Client traffic before this turn's `turn/start` (e.g. `thread/inject_items`). */
  readonly before?: (driver: AppServerDriver, threadId: string) => Promise<void>;
}

export interface Scenario {
  readonly name: string;
  readonly summary: string;
  readonly approvalPolicy: 'never' | 'on-request' | 'untrusted';
  readonly sandbox: 'read-only' | 'workspace-write';
  readonly extraConfig?: readonly string[];
  /** `initialize.capabilities.experimentalApi: true` (needed by `thread/start.dynamicTools`). */
  readonly experimentalApi?: boolean;
  /** More `thread/start` members (e.g. `dynamicTools`). */
  readonly threadStart?: Readonly<Record<string, unknown>>;
  readonly steps: readonly ScriptedStep[];
  readonly turns: readonly TurnPlan[];
  /** Keep listening this long after the last awaited frame before closing stdin. */
  readonly settleMs?: number;
  /** Client traffic before `initialize` (protocol-error probes). */
  readonly beforeInitialize?: (driver: AppServerDriver) => Promise<void>;
  /** Files written into the workspace before the app-server starts (path → content). */
  readonly workspaceFiles?: Readonly<Record<string, string | Uint8Array>>;
  /** false: a persisted thread (`ephemeral: false`), needed by `resume`. Default true. */
  readonly ephemeral?: boolean;
  /**
   * Resume: after the turns, the first app-server is closed and a second one with the
   * same CODEX_HOME resumes the thread (`thread/resume`, `excludeTurns: true`) and runs these
   * turns. Only the second process is recorded; the first is set-up.
   */
  readonly resume?: {
    readonly turns: readonly TurnPlan[];
    /** `unknown`: resume a thread id that was never created (a fresh UUID). */
    readonly thread?: 'recorded' | 'unknown';
    /** `other`: resume with a different cwd (a directory under HOME). */
    readonly cwd?: 'workspace' | 'other';
  };
  /**
   * Fork: after the turns, a second app-server (same CODEX_HOME; the first stays open, as the
   * adapter meets it) forks the thread through its last turn (`thread/fork`, `excludeTurns`)
   * and runs these turns on the new thread. Only the second process is recorded.
   */
  readonly fork?: { readonly turns: readonly TurnPlan[] };
  /**
   * Why this scenario's frames never decide a review's verdict (they stay in the report as
   * evidence), when what it records depends on timing the scenario cannot fix.
   */
  readonly evidenceOnly?: string;
  /** Client traffic after thread/started, before the turns. */
  readonly afterThreadStart?: (driver: AppServerDriver, threadId: string) => Promise<void>;
}
