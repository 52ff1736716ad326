/**
 * Turns on a real codex session (`openRealCodex`, or one it forked or resumed), for a namespace
 * import (`turns.start`, `turns.run`, …): start a run with a fresh recording sink, run it to its
 * end, take what `startRun` refused with, wait for what the run asks, answer an approval.
 */
import type {
  ProviderRun,
  ProviderRunRequest,
  ProviderRunTermination,
  ProviderSession,
  TurnInput,
} from '@relvo-labs/agent-provider';
import { expect } from 'vitest';
import { recordingSink, textInput, type RecordingSink } from './provider-harness.js';
import { waitForApproval, waitForEvent } from './real-codex.js';

/** A run's other request fields: a sink of the test's own, an output schema, run options. */
export type TurnExtra = Partial<Omit<ProviderRunRequest, 'input' | 'runRef'>> & {
  readonly sink?: RecordingSink;
};

export interface StartedTurn {
  readonly run: ProviderRun;
  readonly sink: RecordingSink;
}

function request(input: string | TurnInput, runRef: string, extra: TurnExtra) {
  return {
    ...extra,
    input: typeof input === 'string' ? textInput(input) : input,
    runRef,
    sink: extra.sink ?? recordingSink(),
  };
}

/** Starts a run (a text is one text part) with a fresh recording sink unless one is given. */
export async function start(
  session: ProviderSession,
  input: string | TurnInput,
  runRef: string,
  extra: TurnExtra = {},
): Promise<StartedTurn> {
  const req = request(input, runRef, extra);
  return { run: await session.startRun(req), sink: req.sink };
}

/** A run started and awaited: its sink and how it ended. */
export async function run(
  session: ProviderSession,
  input: string | TurnInput,
  runRef: string,
  extra: TurnExtra = {},
): Promise<{ readonly sink: RecordingSink; readonly termination: ProviderRunTermination }> {
  const { run, sink } = await start(session, input, runRef, extra);
  return { sink, termination: await run.completion };
}

/** A run started and awaited that must succeed: its sink. */
export async function ok(
  session: ProviderSession,
  input: string | TurnInput,
  runRef: string,
  extra: TurnExtra = {},
): Promise<RecordingSink> {
  const { sink, termination } = await run(session, input, runRef, extra);
  expect(termination).toEqual({ outcome: 'succeeded' });
  return sink;
}

/** How a run started and awaited ended. */
export async function end(
  session: ProviderSession,
  input: string | TurnInput,
  runRef: string,
  extra: TurnExtra = {},
): Promise<ProviderRunTermination> {
  return (await run(session, input, runRef, extra)).termination;
}

/** What `startRun` rejected with; `undefined` when the run started. */
export function refusal(
  session: ProviderSession,
  input: string | TurnInput,
  runRef: string,
  extra: TurnExtra = {},
): Promise<unknown> {
  return session.startRun(request(input, runRef, extra)).then(
    () => undefined,
    (e: unknown) => e,
  );
}

/** Starts a run and waits (bounded) for its first interaction request: an approval, a tool call. */
export async function untilAsked(
  session: ProviderSession,
  input: string | TurnInput,
  runRef: string,
  label: string,
) {
  const started = await start(session, input, runRef);
  return { ...started, asked: await waitForApproval(started.sink, label) };
}

/** Waits (bounded) until the run streamed its first message delta. */
export function firstDelta(sink: RecordingSink): Promise<unknown> {
  return waitForEvent(sink, (e) => e.payload.type === 'run.message_delta', 'a first delta');
}

/** Answers an approval: approved for this request or for the session, or denied. */
export function answer(
  session: ProviderSession,
  providerRef: string,
  decision: 'once' | 'session' | 'denied',
): Promise<void> {
  return session.respondToInteraction(
    providerRef,
    decision === 'denied'
      ? { kind: 'approval', decision: 'denied' }
      : { kind: 'approval', decision: 'approved', mode: decision },
  );
}

/** The last `run.usage` a run reported to `sink`. */
export function lastUsage(sink: RecordingSink) {
  return sink.ofType('run.usage').at(-1)?.usage;
}

/** A `run.usage` figure, every count named: what `lastUsage` is compared with. */
export function tokens(inputTokens: number, outputTokens: number, totalTokens: number) {
  return { inputTokens, outputTokens, totalTokens };
}
