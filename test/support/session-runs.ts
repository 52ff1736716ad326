/**
 * Runs and replayed sessions for the session tests: a run with its own recording sink, a run
 * awaited to its end, and a session opened on a replayed transcript (the harness, its replay and
 * the handshake in one call). Registers nothing when imported.
 */
import type {
  ProviderEventInput,
  ProviderRun,
  ProviderRunRequest,
  ProviderSession,
  TurnInput,
} from '@relvo-labs/agent-provider';
import type { CodexProviderOptions } from '../../src/index.js';
import {
  createProviderHarness,
  recordingSink,
  startReplay,
  textInput,
  type ProviderHarness,
  type RecordingSink,
} from './provider-harness.js';
import { openedHarness, startBound } from './provider-frames.js';
import { replayRecorded } from './recorded.js';
import type { ReplayOptions, ReplayResult } from './replay.js';

export interface StartedRun {
  readonly run: ProviderRun;
  readonly sink: RecordingSink;
}

export interface EndedRun extends StartedRun {
  readonly termination: Awaited<ProviderRun['completion']>;
}

/** What a run request may carry beside its input, sink and runRef (per-run options). */
export type RunExtras = Omit<ProviderRunRequest, 'input' | 'sink' | 'runRef'>;

/** startRun on `input` (a string is one text part) with a fresh recording sink. */
export async function runOn(
  session: ProviderSession,
  input: string | TurnInput,
  runRef: string,
  extras: RunExtras = {},
): Promise<StartedRun> {
  const sink = recordingSink();
  const turnInput = typeof input === 'string' ? textInput(input) : input;
  const run = await session.startRun({ ...extras, input: turnInput, sink, runRef });
  return { run, sink };
}

/** `runOn`, then the run's completion awaited. */
export async function runToEnd(
  session: ProviderSession,
  input: string | TurnInput,
  runRef: string,
  extras: RunExtras = {},
): Promise<EndedRun> {
  const started = await runOn(session, input, runRef, extras);
  return { ...started, termination: await started.run.completion };
}

export interface ReplayedSession {
  readonly h: ProviderHarness;
  /** The replay running in the background; await it once the test's runs have ended. */
  readonly replaying: Promise<ReplayResult>;
  readonly session: ProviderSession;
}

export interface ReplayedSessionOptions extends Omit<ReplayOptions, 'workspace'> {
  readonly provider?: Omit<CodexProviderOptions, 'transport'>;
  /**
   * Whose recording: the pinned release's (`startReplay`) or the newest allowlisted release that
   * holds the scenario (`replayRecorded`, the default).
   */
  readonly release?: 'pinned' | 'newest';
}

/** A provider harness replaying `scenario`, and a session opened on it. */
export async function replayedSession(
  scenario: string,
  { provider = {}, release = 'newest', ...replay }: ReplayedSessionOptions = {},
): Promise<ReplayedSession> {
  const h = createProviderHarness(provider);
  const replaying =
    release === 'pinned' ? startReplay(h, scenario, replay) : replayRecorded(h, scenario, replay);
  return { h, replaying, session: await h.openSession() };
}

/** A replayed session whose one run on `input` has ended, and whose replay has finished. */
export async function replayedRun(
  scenario: string,
  input: string | TurnInput,
  runRef: string,
  options: ReplayedSessionOptions = {},
): Promise<ReplayedSession & EndedRun> {
  const opened = await replayedSession(scenario, options);
  const ended = await runToEnd(opened.session, input, runRef);
  await opened.replaying;
  return { ...opened, ...ended };
}

/** A fresh harness, its session opened, and a run bound to turn `turnId` (hand-built frames). */
export async function openedWithRun(
  options: Omit<CodexProviderOptions, 'transport'> = {},
  turnId = 't1',
) {
  const { h, session } = await openedHarness(options);
  return { h, session, ...(await startBound(h, session, turnId)) };
}

/** The labels `label` gives the events' payloads, in order; undefined leaves a payload out. */
export function trailOf(
  events: readonly ProviderEventInput[],
  label: (payload: ProviderEventInput['payload']) => string | undefined,
): string[] {
  return events.flatMap(({ payload }) => label(payload) ?? []);
}
