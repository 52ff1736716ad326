/**
 * Validation of a neutral response against one tracked interaction (docs/behaviour.md §9.7).
 * Pure: it decides the native reply and the applied key, or the rejection, and consumes
 * nothing. Messages are fixed text plus non-echoing reasons; caller values never appear.
 */
import {
  canonicalJson,
  checkResponseAgainstRequest,
  interactionResponseSchema,
  type ProviderRejection,
  type AgentErrorCode,
  type ApprovalRequest,
  type ApprovalResponse,
  type JsonObject,
  type QuestionSetRequest,
  type QuestionSetResponse,
} from '@relvo-labs/agent-provider';
import { nativeApprovalDecision, type NativeApprovalDecision } from './native-approval.js';
import {
  buildNativeAnswers,
  type NativeUserInputResponse,
  type QuestionPlan,
} from './native-question.js';
import { codexRejection } from '../shared/codex-error.js';

const MESSAGE_MAX = 2000;

export const SETTLEMENT_MESSAGES = {
  unknown: 'no interaction outstanding for that reference',
  malformed: 'the interaction response is malformed',
  questionKindOnly: 'this codex interaction accepts question_set responses only',
  approvalKindOnly: 'codex bridges approvals only for this interaction',
  toolCallKindOnly: 'a host tool call accepts tool_call responses only',
  approvedWithoutMode: 'an approval must carry a mode',
  persistentUnsupported: 'codex cannot honour persistent approvals',
  deniedWithMode: 'a denial must not carry a mode',
  alreadySettled: 'the interaction was already settled with a different response',
} as const;

export function rejection(
  code: AgentErrorCode,
  message: string,
  details?: JsonObject,
): ProviderRejection {
  const bounded = message.length > MESSAGE_MAX ? message.slice(0, MESSAGE_MAX) : message;
  return codexRejection(code, bounded, details === undefined ? {} : { details });
}

export type SettlementPlan<R> =
  | { readonly ok: true; readonly appliedKey: string; readonly nativeResult: R }
  | { readonly ok: false; readonly rejection: ProviderRejection };

function fail<R>(code: AgentErrorCode, message: string, details?: JsonObject): SettlementPlan<R> {
  return { ok: false, rejection: rejection(code, message, details) };
}

/** The native reply for a validated approval answer; the command approval's by default. */
export type ApprovalReply<R> = (response: ApprovalResponse) => R | undefined;

function commandReply(
  response: ApprovalResponse,
): { decision: NativeApprovalDecision } | undefined {
  const decision = nativeApprovalDecision(response);
  return decision === undefined ? undefined : { decision };
}

export function planApprovalSettlement(
  request: ApprovalRequest,
  response: unknown,
): SettlementPlan<{ decision: NativeApprovalDecision }>;
export function planApprovalSettlement<R>(
  request: ApprovalRequest,
  response: unknown,
  reply: ApprovalReply<R>,
): SettlementPlan<R>;
export function planApprovalSettlement(
  request: ApprovalRequest,
  response: unknown,
  reply: ApprovalReply<unknown> = commandReply,
): SettlementPlan<unknown> {
  const parsed = interactionResponseSchema.safeParse(response);
  if (!parsed.success) return fail('invalid_request', SETTLEMENT_MESSAGES.malformed);
  const r = parsed.data;
  if (r.kind !== 'approval') {
    return fail('capability_unsupported', SETTLEMENT_MESSAGES.approvalKindOnly, {
      supported: ['approval'],
    });
  }
  if (r.decision === 'approved' && r.mode === undefined) {
    return fail('invalid_request', SETTLEMENT_MESSAGES.approvedWithoutMode);
  }
  if (r.mode === 'persistent') {
    return fail('capability_unsupported', SETTLEMENT_MESSAGES.persistentUnsupported, {
      supported: ['once', 'session'],
    });
  }
  if (r.decision === 'denied' && r.mode !== undefined) {
    return fail('invalid_request', SETTLEMENT_MESSAGES.deniedWithMode);
  }
  const reason = checkResponseAgainstRequest(request, r);
  if (reason !== undefined) {
    return fail('invalid_request', `the codex approval was answered invalidly: ${reason}`);
  }
  const nativeResult = reply(r);
  // Unreachable after the checks above; a backstop so no approval is ever sent by default.
  if (nativeResult === undefined)
    return fail('invalid_request', SETTLEMENT_MESSAGES.approvedWithoutMode);
  return {
    ok: true,
    appliedKey: JSON.stringify([r.decision, r.mode ?? null, r.reason ?? null]),
    nativeResult,
  };
}

/** Builds the native reply from complete, checked answers, or names why it cannot. */
export type QuestionAnswersBuild<R> = (
  answers: QuestionSetResponse['answers'],
) => { readonly ok: true; readonly response: R } | { readonly ok: false; readonly reason: string };

/** A question set answered: the SPI checks, then the bridge's own build of the native reply. */
export function planQuestionAnswers<R>(
  request: QuestionSetRequest,
  response: unknown,
  build: QuestionAnswersBuild<R>,
): SettlementPlan<R> {
  const parsed = interactionResponseSchema.safeParse(response);
  if (!parsed.success) return fail('invalid_request', SETTLEMENT_MESSAGES.malformed);
  const r = parsed.data;
  if (r.kind !== 'question_set') {
    return fail('capability_unsupported', SETTLEMENT_MESSAGES.questionKindOnly, {
      supported: ['question_set'],
    });
  }
  const reason = checkResponseAgainstRequest(request, r);
  if (reason !== undefined) {
    return fail('invalid_request', `the codex question batch was answered invalidly: ${reason}`);
  }
  const built = build(r.answers);
  if (!built.ok) {
    return fail(
      'invalid_request',
      `the codex question batch was answered invalidly: ${built.reason}`,
    );
  }
  // canonicalJson orders keys, so a redelivery with reordered keys is recognised as identical.
  return { ok: true, appliedKey: canonicalJson(r.answers), nativeResult: built.response };
}

export function planQuestionSettlement(
  request: QuestionSetRequest,
  plan: QuestionPlan,
  response: unknown,
): SettlementPlan<NativeUserInputResponse> {
  return planQuestionAnswers(request, response, (answers) => buildNativeAnswers(plan, answers));
}
