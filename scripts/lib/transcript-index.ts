/** The per-scenario summary kept in fixtures/transcripts/<version>/index.json. */
import type { TurnTimings } from './record-turn.js';
import type { ScenarioRecording } from './recorder.js';
import type { Scenario } from './scenario-types.js';

export interface TurnSummary {
  readonly status: string;
  /** All ms since spawn. */
  readonly turnStartSentMs: number;
  readonly turnStartReplyMs: number;
  readonly turnStartedMs: number | null;
  readonly firstDeltaMs: number | null;
  readonly turnCompletedMs: number;
  /** turn/completed minus turn/start sent. */
  readonly turnDurationMs: number;
}

export interface ScenarioSummary {
  readonly summary: string;
  readonly approvalPolicy: string;
  readonly sandbox: string;
  readonly extraConfig: readonly string[];
  readonly frames: number;
  readonly c2s: number;
  readonly s2c: number;
  readonly modelRequests: number;
  readonly exitCode: number | null;
  readonly initReplyMs: number;
  readonly threadStartReplyMs: number;
  readonly threadStartedMs: number;
  readonly turns: readonly TurnSummary[];
  readonly stdinCloseToExitMs: number;
  readonly methods: Readonly<Record<string, number>>;
}

export interface TranscriptIndex {
  readonly codexVersion: string;
  readonly binaryKind: string;
  readonly scenarios: Record<string, ScenarioSummary>;
}

const turnSummary = (t: TurnTimings): TurnSummary => ({
  status: t.turnStatus,
  turnStartSentMs: t.turnStartSent,
  turnStartReplyMs: t.turnStartReply,
  turnStartedMs: t.turnStarted,
  firstDeltaMs: t.firstDelta,
  turnCompletedMs: t.turnCompleted,
  turnDurationMs: t.turnCompleted - t.turnStartSent,
});

export function summarizeRecording(
  scenario: Scenario,
  recording: ScenarioRecording,
): ScenarioSummary {
  const methods: Record<string, number> = {};
  for (const line of recording.lines) {
    const method = line.frame.method;
    const key = `${line.dir} ${typeof method === 'string' ? method : 'error' in line.frame ? '(error reply)' : '(reply)'}`;
    methods[key] = (methods[key] ?? 0) + 1;
  }
  const t = recording.timings;
  return {
    summary: scenario.summary,
    approvalPolicy: scenario.approvalPolicy,
    sandbox: scenario.sandbox,
    extraConfig: scenario.extraConfig ?? [],
    frames: recording.lines.length,
    c2s: recording.lines.filter((l) => l.dir === 'c2s').length,
    s2c: recording.lines.filter((l) => l.dir === 's2c').length,
    modelRequests: recording.modelRequests,
    exitCode: recording.exitCode,
    initReplyMs: t.initReply,
    threadStartReplyMs: t.threadStartReply,
    threadStartedMs: t.threadStarted,
    turns: t.turns.map(turnSummary),
    stdinCloseToExitMs: t.exit - t.stdinClosed,
    methods,
  };
}
