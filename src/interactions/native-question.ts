/**
 * Strict parsing of `item/tool/requestUserInput` params and their translation into one neutral
 * `question_set` plus a private plan that maps neutral keys and values back to native ids and
 * labels (docs/behaviour.md §9.6). Native ids never appear in the neutral request.
 */
import { z } from 'zod';
import {
  canonicalJson,
  questionSetRequestSchema,
  type JsonObject,
  type QuestionSetRequest,
  type QuestionSetResponse,
} from '@relvo-labs/agent-provider';
import { redactAddressesIn } from '../shared/url-redaction.js';
import type { BridgeRefusal } from './bridged.js';
import type { InteractionCorrelation } from './native-approval.js';

/** docs/behaviour.md §9.6: why a structured question batch was refused (answered -32602). */
// prettier-ignore
export type QuestionRefusalToken =
  | BridgeRefusal
  | 'not_blocking' | 'auto_resolution_requested' | 'question_count' | 'duplicate_question_id'
  | 'duplicate_option_label'
  // an MCP form whose schema has no faithful question kind (ADR-0040)
  | 'neutral_bounds' | 'schema_unsupported';

const nonEmpty = z.string().min(1);

export const MAX_NATIVE_QUESTIONS = 32;
export const MAX_QUESTION_BATCH_CHARS = 16_000;

export const nativeUserInputParamsSchema = z.strictObject({
  threadId: nonEmpty,
  turnId: nonEmpty,
  itemId: nonEmpty,
  questions: z.array(
    z.strictObject({
      id: z.string(),
      header: z.string(),
      question: z.string(),
      isOther: z.boolean().default(false),
      isSecret: z.boolean().default(false),
      options: z.array(z.strictObject({ label: nonEmpty, description: z.string() })).nullish(),
    }),
  ),
  isBlocking: z.boolean(),
  autoResolutionMs: z.int().min(0).nullish(),
});
export type NativeUserInputParams = z.infer<typeof nativeUserInputParamsSchema>;

/** Private: neutral key → native question id, and per key neutral value → native label. */
export interface QuestionPlanEntry {
  readonly key: string;
  readonly nativeId: string;
  readonly labels: ReadonlyMap<string, string>;
}
export interface QuestionPlan {
  readonly entries: readonly QuestionPlanEntry[];
}

export type UserInputTranslation =
  | {
      readonly ok: true;
      readonly request: QuestionSetRequest;
      readonly plan: QuestionPlan;
      readonly correlation: InteractionCorrelation;
    }
  | { readonly ok: false; readonly token: QuestionRefusalToken };

/** The native reply body: `{ answers: { [nativeQuestionId]: { answers: string[] } } }`. */
export interface NativeUserInputResponse {
  readonly answers: Readonly<Record<string, { readonly answers: readonly string[] }>>;
}

function refuse(token: QuestionRefusalToken): UserInputTranslation {
  return { ok: false, token };
}

function hasDuplicates(values: readonly string[]): boolean {
  return new Set(values).size !== values.length;
}

export function translateUserInput(params: unknown): UserInputTranslation {
  const parsed = nativeUserInputParamsSchema.safeParse(params);
  if (!parsed.success) return refuse('malformed');
  const p = parsed.data;

  if (!p.isBlocking) return refuse('not_blocking');
  if (p.autoResolutionMs !== null && p.autoResolutionMs !== undefined)
    return refuse('auto_resolution_requested');
  if (p.questions.length === 0 || p.questions.length > MAX_NATIVE_QUESTIONS)
    return refuse('question_count');
  if (hasDuplicates(p.questions.map((q) => q.id))) return refuse('duplicate_question_id');
  if (p.questions.some((q) => hasDuplicates((q.options ?? []).map((o) => o.label)))) {
    return refuse('duplicate_option_label');
  }

  const entries: QuestionPlanEntry[] = [];
  const questions = p.questions.map((q, index) => {
    const key = `q${index + 1}`;
    const options = q.options ?? [];
    const labels = new Map<string, string>();
    // shown and stored: credentials in an address are redacted (labels stay: they are answers)
    const item: JsonObject = { key, prompt: redactAddressesIn(q.question) };
    if (q.header.length > 0) item.header = redactAddressesIn(q.header);
    // An empty option list offers nothing to select: it is a free-text question like `null`.
    if (options.length > 0) {
      item.choices = options.map((o, optionIndex) => {
        const value = `o${optionIndex + 1}`;
        labels.set(value, o.label);
        const choice: JsonObject = { value, label: o.label };
        if (o.description.length > 0) choice.description = redactAddressesIn(o.description);
        return choice;
      });
    }
    item.multiSelect = false;
    item.allowFreeText = options.length === 0 || q.isOther;
    item.sensitive = q.isSecret;
    entries.push({ key, nativeId: q.id, labels });
    return item;
  });

  const candidate: JsonObject = { kind: 'question_set', questions };
  if (canonicalJson(candidate).length > MAX_QUESTION_BATCH_CHARS) return refuse('detail_too_large');
  // The whole batch is validated before anything is retained: a batch the runtime would discard
  // must never leave a blocking native request waiting for an answer nobody was shown.
  const request = questionSetRequestSchema.safeParse(candidate);
  if (!request.success) return refuse('neutral_bounds');
  return {
    ok: true,
    request: request.data,
    plan: { entries },
    correlation: { threadId: p.threadId, turnId: p.turnId },
  };
}

export type NativeAnswersBuild =
  | { readonly ok: true; readonly response: NativeUserInputResponse }
  | { readonly ok: false; readonly reason: 'missing_answer' | 'unknown_value' };

/**
 * Build the native reply. Own properties only (Object.fromEntries), so native ids such as
 * `__proto__` or `constructor` stay ordinary keys. A text answer is sent verbatim as one element;
 * a selection becomes the selected labels.
 */
export function buildNativeAnswers(
  plan: QuestionPlan,
  answers: QuestionSetResponse['answers'],
): NativeAnswersBuild {
  const pairs: [string, { answers: string[] }][] = [];
  for (const entry of plan.entries) {
    const answer = Object.hasOwn(answers, entry.key) ? answers[entry.key] : undefined;
    if (answer === undefined) return { ok: false, reason: 'missing_answer' };
    if (answer.type === 'text') {
      pairs.push([entry.nativeId, { answers: [answer.text] }]);
      continue;
    }
    const labels: string[] = [];
    for (const value of answer.values) {
      const label = entry.labels.get(value);
      if (label === undefined) return { ok: false, reason: 'unknown_value' };
      labels.push(label);
    }
    pairs.push([entry.nativeId, { answers: labels }]);
  }
  return { ok: true, response: { answers: Object.fromEntries(pairs) } };
}

/** The reply that releases a retired batch: it answers nothing and invents nothing. */
export function emptyNativeAnswers(): NativeUserInputResponse {
  return { answers: {} };
}
