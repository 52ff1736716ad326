/**
 * Hand-built app-server frames (modelled on the recorded baseline transcripts) and a scripted
 * server for frame tests: wait for the adapter's request, answer it on its own id.
 */
import type { ProviderRun, ProviderSession } from '@relvo-labs/agent-provider';
import type { FakeTransport } from './fake-transport.js';
import type { CodexProviderOptions } from '../../src/index.js';
import {
  createProviderHarness,
  recordingSink,
  textInput,
  type ProviderHarness,
  type RecordingSink,
} from './provider-harness.js';
import { BASELINE, recordedUserAgentOf } from './releases.js';

export const THREAD = '01a228d9-72fc-76b2-83a3-6e6d181a9480';
export const USER_AGENT = recordedUserAgentOf(BASELINE);
export const CANARY_SECRET = 'sk-CANARYCANARYCANARY1234';
export const CANARY_PATH = '/home/canary-user/.secret-canary/notes.txt';

/** Waits (bounded by event-loop turns) until the adapter has written the nth request of `method`. */
export async function waitForRequest(
  t: FakeTransport,
  method: string,
  nth = 0,
  maxTurns = 2000,
): Promise<Record<string, unknown>> {
  for (let turn = 0; turn < maxTurns; turn += 1) {
    const found = t.sent.filter((f) => f.method === method && Object.hasOwn(f, 'id'))[nth];
    if (found !== undefined) return found;
    await new Promise<void>((r) => setImmediate(r));
  }
  throw new Error(`adapter never wrote request #${nth} of ${method}`);
}

/** Lets the adapter run for a number of event-loop turns (no wall time). */
export async function turns(n = 20): Promise<void> {
  for (let i = 0; i < n; i += 1) await new Promise<void>((r) => setImmediate(r));
}

export async function push(t: FakeTransport, ...frames: unknown[]): Promise<void> {
  for (const frame of frames) t.push(frame);
  await t.drained();
}

/** Answers the nth `method` request the adapter wrote, on its own id. */
async function answer(
  t: FakeTransport,
  method: string,
  nth: number,
  outcome: { result: unknown } | { error: { code: number; message: string } },
): Promise<void> {
  const request = await waitForRequest(t, method, nth);
  await push(t, { id: request.id, ...outcome });
}

/** Answers the nth `method` request with `result`. */
export const reply = (t: FakeTransport, method: string, result: unknown, nth = 0): Promise<void> =>
  answer(t, method, nth, { result });

/** Answers the nth `method` request with a JSON-RPC error. */
export const replyError = (
  t: FakeTransport,
  method: string,
  code: number,
  message: string,
  nth = 0,
): Promise<void> => answer(t, method, nth, { error: { code, message } });

export function count(t: FakeTransport, method: string): number {
  return t.sent.filter((f) => f.method === method).length;
}

/** Runs the handshake against scripted replies and resolves the session. */
export async function open(
  h: ProviderHarness,
  options: Record<string, string> = {},
): Promise<ProviderSession> {
  const opening = h.openSession(options);
  await reply(h.transport, 'initialize', {
    userAgent: USER_AGENT,
    codexHome: '/home/replay/.codex',
  });
  await reply(h.transport, 'thread/start', { thread: { id: THREAD, ephemeral: true } });
  return opening;
}

/** startRun with the text 'x' and a fresh sink; the turn/start is left for the test to answer. */
export function startText(session: ProviderSession, runRef = 'a'): Promise<ProviderRun> {
  return session.startRun({ input: textInput('x'), sink: recordingSink(), runRef });
}

/** Disposes while a run's turn/start is written and unanswered; resolves how that run ended. */
export async function disposeWithTurnStartPending(
  h: ProviderHarness,
  session: ProviderSession,
): Promise<Awaited<ProviderRun['completion']>> {
  const starting = startText(session, 'a');
  await waitForRequest(h.transport, 'turn/start');
  await session.dispose();
  const run = await starting;
  return run.completion;
}

/** A fresh harness and a session opened on it (the handshake answered). */
export async function openedHarness(
  options: Omit<CodexProviderOptions, 'transport'> = {},
): Promise<{ readonly h: ProviderHarness; readonly session: ProviderSession }> {
  const h = createProviderHarness(options);
  return { h, session: await open(h) };
}

export interface BoundRun {
  readonly run: ProviderRun;
  readonly sink: RecordingSink;
}

/** startRun + the turn/start reply carrying `turnId`; `nth` counts earlier turn/starts. */
export async function startBound(
  h: ProviderHarness,
  session: ProviderSession,
  turnId: string,
  runRef = turnId,
  nth = 0,
): Promise<BoundRun> {
  const sink = recordingSink();
  const starting = session.startRun({ input: textInput('hello'), sink, runRef });
  await reply(h.transport, 'turn/start', { turn: turnStarted(turnId) }, nth);
  return { run: await starting, sink };
}

/** Interrupts `run` and acknowledges the nth `turn/interrupt`; resolves once the interrupt has. */
export async function interruptAcknowledged(
  h: ProviderHarness,
  run: ProviderRun,
  { reason, nth = 0 }: { reason?: string; nth?: number } = {},
): Promise<void> {
  const interrupting = reason === undefined ? run.interrupt() : run.interrupt(reason);
  await reply(h.transport, 'turn/interrupt', {}, nth);
  await interrupting;
}

export function turnStarted(turnId: string, status = 'inProgress'): Record<string, unknown> {
  return {
    id: turnId,
    items: [],
    itemsView: 'notLoaded',
    status,
    error: null,
    startedAt: null,
    completedAt: null,
    durationMs: null,
  };
}

export function delta(turnId: string, text: string, threadId = THREAD): Record<string, unknown> {
  return {
    method: 'item/agentMessage/delta',
    params: { threadId, turnId, itemId: 'msg_1', delta: text },
  };
}

export function completed(
  turnId: string,
  status: unknown,
  error: unknown = null,
  threadId = THREAD,
): Record<string, unknown> {
  return {
    method: 'turn/completed',
    params: {
      threadId,
      turn: { ...turnStarted(turnId), status, error, completedAt: 1, durationMs: 5 },
    },
  };
}

export function usage(
  turnId: string,
  last: Record<string, unknown>,
  total: Record<string, unknown>,
): Record<string, unknown> {
  return {
    method: 'thread/tokenUsage/updated',
    params: { threadId: THREAD, turnId, tokenUsage: { last, total, modelContextWindow: null } },
  };
}

export function midTurnError(
  turnId: string,
  codexErrorInfo: unknown,
  willRetry: boolean,
  message = 'boom',
): Record<string, unknown> {
  return {
    method: 'error',
    params: {
      threadId: THREAD,
      turnId,
      willRetry,
      error: { message, codexErrorInfo, additionalDetails: message },
    },
  };
}

/**
 * A command approval request (`item/commandExecution/requestApproval`) on THREAD, shaped like the
 * recorded one with approve-for-session offered; `patch` replaces members (turn, command, cwd…).
 */
export function commandApproval(
  id: number,
  patch: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id,
    method: 'item/commandExecution/requestApproval',
    params: {
      kind: 'command',
      threadId: THREAD,
      turnId: 't1',
      itemId: `call_${id}`,
      startedAtMs: 1795982026993,
      environmentId: 'local',
      reason: 'wants to run echo',
      command: "/bin/bash -lc 'echo hi'",
      cwd: '/work/replay-workspace',
      availableDecisions: ['accept', 'acceptForSession', 'decline', 'cancel'],
      ...patch,
    },
  };
}

/** A blocking `item/tool/requestUserInput` on THREAD with the given native questions. */
export function userInputRequest(
  id: number,
  turnId: string,
  questions: unknown[],
): Record<string, unknown> {
  return {
    id,
    method: 'item/tool/requestUserInput',
    params: {
      threadId: THREAD,
      turnId,
      itemId: `call_rui_${String(id)}`,
      questions,
      isBlocking: true,
      autoResolutionMs: null,
    },
  };
}

/** What a turn that failed with no codexErrorInfo the adapter knows terminates as. */
export const UNCLASSIFIED_FAILURE = {
  outcome: 'failed',
  error: {
    code: 'provider_rejected',
    providerCode: 'other',
    details: { classification: 'unclassified' },
  },
} as const;

/** Every text the adapter published anywhere, as one string, for leak checks. */
export function published(...things: unknown[]): string {
  return JSON.stringify(things, (_k, v: unknown) =>
    v instanceof Error ? { ...Object.fromEntries(Object.entries(v)), message: v.message } : v,
  );
}
