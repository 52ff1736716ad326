/**
 * The frames the conformance harness's scripted app-server sends, modelled on the baseline's
 * transcripts; their text carries the secret, the workspace and native ids a neutral event
 * must never show.
 */
import { colorQuestion, realApprovalParams } from './interaction-frames.js';

export const WORKSPACE = '/work/conformance-workspace';
export const SECRET = 'sk-CONFORMANCECANARY0000';
/** Native id prefixes; none may ever reach a neutral event. */
export const NATIVE_ID_PREFIXES = [
  'thread-native-',
  'turn-native-',
  'item-native-',
  'qid-native-',
] as const;

export type Frame = Record<string, unknown>;

export function tokenUsage(threadId: string, turnId: string): Frame {
  const usage = {
    totalTokens: 107,
    inputTokens: 100,
    cachedInputTokens: 20,
    cacheWriteInputTokens: 0,
    outputTokens: 7,
    reasoningOutputTokens: 3,
  };
  return {
    method: 'thread/tokenUsage/updated',
    params: {
      threadId,
      turnId,
      tokenUsage: { total: usage, last: usage, modelContextWindow: 258400 },
    },
  };
}

export function turnObject(id: string, status: string, error: unknown = null): Frame {
  return {
    id,
    items: [],
    itemsView: 'notLoaded',
    status,
    error,
    startedAt: 1795982026,
    completedAt: status === 'inProgress' ? null : 1795982027,
    durationMs: null,
  };
}

export function turnCompleted(
  threadId: string,
  turnId: string,
  status: string,
  error: unknown = null,
): Frame {
  return {
    method: 'turn/completed',
    params: { threadId, turn: turnObject(turnId, status, error) },
  };
}

export function agentDelta(threadId: string, turnId: string, itemId: string, delta: string): Frame {
  return { method: 'item/agentMessage/delta', params: { threadId, turnId, itemId, delta } };
}

/** A command item whose line, cwd and output carry the secret, the workspace and a native id. */
export function commandItem(id: string, status: string): Frame {
  return {
    type: 'commandExecution',
    id,
    command: `/bin/bash -lc 'echo ${SECRET} > ${WORKSPACE}/out.txt'`,
    cwd: WORKSPACE,
    status,
    commandActions: [],
    aggregatedOutput: status === 'inProgress' ? null : `${SECRET} ${WORKSPACE}\n`,
    exitCode: status === 'inProgress' ? null : 0,
    durationMs: status === 'inProgress' ? null : 5,
  };
}

/** `item/commandExecution/requestApproval` as the binary sends it (approval_accept.jsonl). */
export function approvalRequest(
  id: number,
  threadId: string,
  turnId: string,
  itemId: string,
): Frame {
  return {
    method: 'item/commandExecution/requestApproval',
    id,
    params: realApprovalParams({
      threadId,
      turnId,
      itemId,
      startedAtMs: 1795982026993,
      cwd: WORKSPACE,
    }),
  };
}

/** `item/tool/requestUserInput` (request_user_input.jsonl), blocking so the adapter bridges it. */
export function questionRequest(
  id: number,
  threadId: string,
  turnId: string,
  itemId: string,
  q1: string,
  q2: string,
): Frame {
  return {
    method: 'item/tool/requestUserInput',
    id,
    params: {
      threadId,
      turnId,
      itemId,
      questions: [
        colorQuestion({
          id: q1,
          options: [
            { label: 'Red', description: 'Loud.' },
            { label: 'Blue', description: 'Calm.' },
          ],
        }),
        {
          id: q2,
          header: 'Token',
          question: 'Paste the token',
          isOther: false,
          isSecret: true,
          options: null,
        },
      ],
      isBlocking: true,
      autoResolutionMs: null,
    },
  };
}
