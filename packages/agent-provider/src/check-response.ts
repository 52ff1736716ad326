import {
  INTERACTION_KINDS,
  interactionRequestSchema,
  interactionResponseSchema,
  type ApprovalRequest,
  type InteractionKind,
  type InteractionRequest,
  type InteractionResponse,
  type QuestionChoice,
  type QuestionRequest,
  type QuestionSetRequest,
} from './schemas/interaction.js';

/*
 * docs/spi.md §13. Non-echo rule: a reason is a fixed sentence that may carry counts, a
 * 1-based question position and kinds from the closed set. It never contains a
 * value, key or reference the caller supplied, because it ends up in a durable
 * receipt. All caller data is read defensively; nothing here may throw.
 */

type Reason = string | undefined;

function knownKind(value: unknown): InteractionKind | undefined {
  return INTERACTION_KINDS.find((kind) => kind === value);
}

/** Reads an own data property without triggering getters or inherited members. */
function own(target: unknown, key: string): unknown {
  if (typeof target !== 'object' || target === null) return undefined;
  const desc = Reflect.getOwnPropertyDescriptor(target, key);
  return desc !== undefined && 'value' in desc ? desc.value : undefined;
}

function valuesOf(value: unknown): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const length = own(value, 'length');
  if (typeof length !== 'number') return undefined;
  return Array.from({ length }, (_, i) => own(value, String(i)));
}

function countOutside(values: readonly unknown[], choices: readonly QuestionChoice[]): number {
  const allowed = new Set(choices.map((c) => c.value));
  return values.filter((v) => typeof v !== 'string' || !allowed.has(v)).length;
}

function checkQuestion(request: QuestionRequest, response: unknown): Reason {
  const answer = own(response, 'answer');
  if (request.choices === undefined) {
    return typeof answer === 'string' ? undefined : 'this question expects a free-text answer';
  }
  // A string answer counts as a selection of exactly that one value.
  const values = typeof answer === 'string' ? [answer] : valuesOf(answer);
  if (values === undefined) return 'answer must be a string or a list of choice values';
  if (values.length > 1 && !request.multiSelect)
    return 'more than one value was selected for a single-select question';
  const outside = countOutside(values, request.choices);
  if (outside > 0) return `${outside} selected value(s) are not among the choices`;
  return undefined;
}

function checkSetAnswer(request: QuestionSetRequest, index: number, answer: unknown): Reason {
  const question = request.questions[index];
  if (question === undefined) return undefined;
  const at = `question ${index + 1}`;
  const type = own(answer, 'type');
  if (type === 'text') {
    if (question.choices !== undefined && !question.allowFreeText)
      return `${at} does not accept free text`;
    return undefined;
  }
  if (type !== 'selection') return `the answer to ${at} is neither text nor a selection`;
  if (question.choices === undefined) return `${at} offers no choices to select`;
  const values = valuesOf(own(answer, 'values'));
  if (values === undefined) return `the answer to ${at} has no list of values`;
  if (values.length > 1 && !question.multiSelect) return `${at} accepts only one value`;
  if (new Set(values).size !== values.length) return `the answer to ${at} repeats a value`;
  const outside = countOutside(values, question.choices);
  if (outside > 0) return `${outside} selected value(s) for ${at} are not among the choices`;
  return undefined;
}

function checkQuestionSet(request: QuestionSetRequest, response: unknown): Reason {
  const answers = own(response, 'answers');
  if (typeof answers !== 'object' || answers === null || Array.isArray(answers))
    return 'answers must be an object';
  const keys = Reflect.ownKeys(answers);
  const asked = new Set(request.questions.map((q) => q.key));
  // All or nothing: every asked key answered, and nothing else.
  const missing = request.questions.filter((q) => !keys.includes(q.key)).length;
  if (missing > 0) return `${missing} of ${request.questions.length} question(s) are unanswered`;
  const extra = keys.filter((k) => typeof k !== 'string' || !asked.has(k)).length;
  if (extra > 0) return `${extra} answer key(s) do not match any question`;
  for (let i = 0; i < request.questions.length; i += 1) {
    const key = request.questions[i]?.key ?? '';
    const reason = checkSetAnswer(request, i, own(answers, key));
    if (reason !== undefined) return reason;
  }
  return undefined;
}

function checkApproval(request: ApprovalRequest, response: unknown): Reason {
  const decision = own(response, 'decision');
  const mode = own(response, 'mode');
  if (decision === 'approved') {
    if (mode === undefined) return 'an approval must carry a mode';
    if (!request.allowedModes.some((m) => m === mode))
      return 'the approval mode is not among the allowed modes';
    return undefined;
  }
  if (decision === 'denied')
    return mode === undefined ? undefined : 'a denial must not carry a mode';
  return 'decision must be approved or denied';
}

function checkByKind(request: InteractionRequest, response: unknown): Reason {
  switch (request.kind) {
    case 'question':
      return checkQuestion(request, response);
    case 'question_set':
      return checkQuestionSet(request, response);
    case 'approval':
      return checkApproval(request, response);
    case 'tool_call':
      // any output answers a call; its bounds are the schema's
      return undefined;
  }
}

/**
 * Returns undefined when the response fits the request, otherwise a short
 * fixed reason suitable for a rejection receipt. Never throws.
 */
export function checkResponseAgainstRequest(
  request: InteractionRequest,
  response: InteractionResponse,
): string | undefined {
  try {
    const expected = knownKind(own(request, 'kind'));
    if (expected === undefined) return 'the request kind is not recognised';
    const received = knownKind(own(response, 'kind'));
    if (received !== expected) {
      return `expected a ${expected} response but received ${received === undefined ? 'an unrecognised kind' : `a ${received} response`}`;
    }
    const parsedRequest = interactionRequestSchema.safeParse(request);
    if (!parsedRequest.success) return 'the request is not a valid interaction request';
    const reason = checkByKind(parsedRequest.data, response);
    if (reason !== undefined) return reason;
    // Last: bounds and shape (lengths, strictness) the rules above do not cover.
    return interactionResponseSchema.safeParse(response).success
      ? undefined
      : 'the response does not match the response schema';
  } catch {
    return 'the response could not be checked';
  }
}
