/** Real-binary-shaped frames (docs/protocol.md "Lifecycle", placeholders for ids and paths) and fakes. */
import type { ProviderEventInput } from '@relvo-labs/agent-provider';
import type { ServerRequestOffer } from '../../src/interactions/registry.js';

export const THREAD = '019a0000-0000-7000-8000-00000000aaaa';
export const TURN = '019a0000-0000-7000-8000-00000000bbbb';

/**
 * The measured approval (on-request + escalation), ids and cwd replaced by placeholders;
 * `patch` sets members such as the ids a test's own thread uses.
 */
export function realApprovalParams(patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kind: 'command',
    threadId: THREAD,
    turnId: TURN,
    itemId: 'call_exec_1',
    startedAtMs: 1795977767436,
    environmentId: 'local',
    reason: 'Scripted test wants to run echo',
    command: "/bin/bash -lc 'echo out-from-exec-123'",
    cwd: '/tmp/workspace-placeholder',
    commandActions: [{ type: 'unknown', command: 'echo out-from-exec-123' }],
    proposedExecpolicyAmendment: ['echo', 'out-from-exec-123'],
    availableDecisions: [
      'accept',
      { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['echo', 'out-from-exec-123'] } },
      'cancel',
    ],
    ...patch,
  };
}

/** The measured Plan-mode colour question; `patch` replaces members (e.g. id, options). */
export function colorQuestion(patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'color_choice',
    header: 'Color',
    question: 'Which color?',
    isOther: true,
    isSecret: false,
    options: [{ label: 'Red', description: 'Loud.' }],
    ...patch,
  };
}

/** The measured Plan-mode request_user_input. */
export function realQuestionParams(): Record<string, unknown> {
  return {
    threadId: THREAD,
    turnId: TURN,
    itemId: 'call_rui_1',
    questions: [colorQuestion()],
    isBlocking: true,
    autoResolutionMs: null,
  };
}

/** A question-set response choosing `values` for the first question. */
export const choosing = (...values: string[]) => ({
  kind: 'question_set',
  answers: { q1: { type: 'selection', values } },
});

export interface OfferLog {
  responded: unknown[];
  rejected: { code: number; message: string }[];
  retired: number;
  /** Every respond/reject call, including refused ones: proves the registry tried only once. */
  attempts: number;
}

/** An offer with the client's at-most-once semantics; `connected: false` simulates a closed stream. */
export function fakeOffer(
  method: string,
  params: unknown,
  id: string | number = 0,
  connected = true,
): { offer: ServerRequestOffer; log: OfferLog } {
  const log: OfferLog = { responded: [], rejected: [], retired: 0, attempts: 0 };
  let open = true;
  const offer: ServerRequestOffer = {
    id,
    method,
    params,
    respond(result) {
      log.attempts += 1;
      if (!open || !connected) return false;
      open = false;
      log.responded.push(JSON.parse(JSON.stringify(result)));
      return true;
    },
    reject(code, message) {
      log.attempts += 1;
      if (!open || !connected) return false;
      open = false;
      log.rejected.push({ code, message });
      return true;
    },
    retire() {
      const wasOpen = open;
      open = false;
      log.retired += 1;
      return wasOpen;
    },
  };
  return { offer, log };
}

export interface FakeOwner {
  readonly name: string;
  readonly events: ProviderEventInput[];
  readonly sink: { emit(input: ProviderEventInput): void };
}

export function fakeOwner(name: string): FakeOwner {
  const events: ProviderEventInput[] = [];
  return { name, events, sink: { emit: (input) => events.push(input) } };
}
