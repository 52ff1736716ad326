/** For the tests of the native translators (approval, question batch): inputs and outcomes. */
import { expect } from 'vitest';
import { realApprovalParams, THREAD, TURN } from './interaction-frames.js';

type Translation<T> = { ok: true; correlation: unknown } | { ok: false; token: T };

/** What `translate` makes of params: its refusal token, or 'ok'. */
export function refusalTokenOf<T>(
  translate: (params: unknown) => Translation<T>,
): (params: unknown) => T | 'ok' {
  return (params) => {
    const result = translate(params);
    return result.ok ? 'ok' : result.token;
  };
}

/** The translation, expected to succeed and to name the measured thread and turn. */
export function onMeasuredTurn<R extends Translation<unknown>>(
  result: R,
): Extract<R, { ok: true }> {
  expect(result.ok).toBe(true);
  if (!result.ok) throw new Error('the translation refused');
  expect(result.correlation).toEqual({ threadId: THREAD, turnId: TURN });
  return result as Extract<R, { ok: true }>;
}

/** The measured approval without `keys`. */
export function approvalWithout(...keys: string[]): Record<string, unknown> {
  const params = realApprovalParams();
  for (const key of keys) Reflect.deleteProperty(params, key);
  return params;
}

export type NativeQuestion = Record<string, unknown>;

/** A native question with the schema's defaults; `patch` replaces members. */
export function nativeQuestion(id: string, patch: NativeQuestion = {}): NativeQuestion {
  return {
    id,
    header: '',
    question: `Question ${id}?`,
    isOther: false,
    isSecret: false,
    options: null,
    ...patch,
  };
}

/** A blocking request_user_input on the measured turn asking `questions`. */
export function questionBatch(
  questions: NativeQuestion[],
  patch: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    threadId: THREAD,
    turnId: TURN,
    itemId: 'call_rui_1',
    questions,
    isBlocking: true,
    autoResolutionMs: null,
    ...patch,
  };
}
