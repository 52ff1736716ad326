import { z } from 'zod';
import { toolCallRequestSchema, toolCallResponseSchema } from './host-tools.js';
import { jsonObjectSchema } from './json.js';

/** Bounds of docs/spi.md §11 and §12, exported so tests and adapters use the same numbers. */
export const INTERACTION_BOUNDS = {
  prompt: 8000,
  placeholder: 400,
  header: 200,
  choices: 64,
  choiceValue: 200,
  choiceLabel: 400,
  choiceDescription: 2000,
  questions: 32,
  questionKey: 64,
  textAnswer: 16_000,
  selectionValues: 64,
  approvalSummary: 2000,
  approvalReason: 2000,
} as const;

export const QUESTION_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export const APPROVAL_MODES = ['once', 'session', 'persistent'] as const;
export const approvalModeSchema = z.enum(APPROVAL_MODES);
export type ApprovalMode = z.infer<typeof approvalModeSchema>;

export const APPROVAL_CATEGORIES = [
  'command',
  'file_write',
  'file_delete',
  'network',
  'tool',
  'other',
] as const;
export const RISK_HINTS = ['low', 'medium', 'high'] as const;
export const INTERACTION_KINDS = ['question', 'question_set', 'approval', 'tool_call'] as const;
export type InteractionKind = (typeof INTERACTION_KINDS)[number];

const B = INTERACTION_BOUNDS;

export const questionChoiceSchema = z.strictObject({
  value: z.string().min(1).max(B.choiceValue),
  label: z.string().min(1).max(B.choiceLabel),
  description: z.string().max(B.choiceDescription).optional(),
});

export const questionKeySchema = z.string().min(1).max(B.questionKey).regex(QUESTION_KEY_PATTERN);

const choicesSchema = z.array(questionChoiceSchema).min(1).max(B.choices);

export const questionItemSchema = z.strictObject({
  key: questionKeySchema,
  prompt: z.string().min(1).max(B.prompt),
  header: z.string().min(1).max(B.header).optional(),
  choices: choicesSchema.optional(),
  multiSelect: z.boolean().default(false),
  allowFreeText: z.boolean().default(false),
  sensitive: z.boolean().default(false),
});

export const questionRequestSchema = z.strictObject({
  kind: z.literal('question'),
  prompt: z.string().min(1).max(B.prompt),
  choices: choicesSchema.optional(),
  multiSelect: z.boolean().default(false),
  placeholder: z.string().max(B.placeholder).optional(),
});

function hasUniqueKeys(questions: readonly { key: string }[]): boolean {
  return new Set(questions.map((q) => q.key)).size === questions.length;
}

// Uniqueness cannot be expressed in JSON Schema, so it lives only here (docs/spi.md §11.2).
export const questionSetRequestSchema = z
  .strictObject({
    kind: z.literal('question_set'),
    questions: z.array(questionItemSchema).min(1).max(B.questions),
  })
  .refine((request) => hasUniqueKeys(request.questions), {
    error: 'question keys must be unique',
    path: ['questions'],
  });

export const approvalRequestSchema = z.strictObject({
  kind: z.literal('approval'),
  subject: z.strictObject({
    category: z.enum(APPROVAL_CATEGORIES),
    summary: z.string().min(1).max(B.approvalSummary),
    detail: jsonObjectSchema.optional(),
  }),
  allowedModes: z.array(approvalModeSchema).min(1),
  riskHint: z.enum(RISK_HINTS).default('medium'),
});

export const interactionRequestSchema = z.discriminatedUnion('kind', [
  questionRequestSchema,
  questionSetRequestSchema,
  approvalRequestSchema,
  toolCallRequestSchema,
]);

const choiceValueSchema = z.string().min(1).max(B.choiceValue);

export const questionAnswerSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string().min(1).max(B.textAnswer) }),
  z.strictObject({
    type: z.literal('selection'),
    values: z.array(choiceValueSchema).min(1).max(B.selectionValues),
  }),
]);

export const questionResponseSchema = z.strictObject({
  kind: z.literal('question'),
  answer: z.union([
    z.string().max(B.textAnswer),
    z.array(choiceValueSchema).min(1).max(B.selectionValues),
  ]),
});

/**
 * Checks own keys before zod rebuilds the record: the rebuild skips an own
 * `__proto__` key, so without this an invalid key would vanish instead of failing.
 */
function checkAnswerKeys(value: unknown, ctx: z.core.$RefinementCtx): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  let invalid = 0;
  try {
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key === 'symbol' || !questionKeySchema.safeParse(key).success) invalid += 1;
    }
  } catch {
    invalid += 1;
  }
  if (invalid > 0) {
    // Counted, never named: answer keys come from the caller.
    ctx.addIssue({
      code: 'custom',
      message: `${invalid} answer key(s) are not valid question keys`,
      input: value,
    });
  }
  return value;
}

export const questionSetResponseSchema = z.strictObject({
  kind: z.literal('question_set'),
  answers: z.preprocess(checkAnswerKeys, z.record(questionKeySchema, questionAnswerSchema)),
});

export const approvalResponseSchema = z.strictObject({
  kind: z.literal('approval'),
  decision: z.enum(['approved', 'denied']),
  mode: approvalModeSchema.optional(),
  reason: z.string().max(B.approvalReason).optional(),
});

export const interactionResponseSchema = z.discriminatedUnion('kind', [
  questionResponseSchema,
  questionSetResponseSchema,
  approvalResponseSchema,
  toolCallResponseSchema,
]);

export type QuestionChoice = z.infer<typeof questionChoiceSchema>;
export type QuestionKey = z.infer<typeof questionKeySchema>;
export type QuestionItem = z.infer<typeof questionItemSchema>;
export type QuestionRequest = z.infer<typeof questionRequestSchema>;
export type QuestionSetRequest = z.infer<typeof questionSetRequestSchema>;
export type ApprovalRequest = z.infer<typeof approvalRequestSchema>;
export type InteractionRequest = z.infer<typeof interactionRequestSchema>;
export type InteractionRequestInput = z.input<typeof interactionRequestSchema>;
export type QuestionAnswer = z.infer<typeof questionAnswerSchema>;
export type QuestionResponse = z.infer<typeof questionResponseSchema>;
export type QuestionSetResponse = z.infer<typeof questionSetResponseSchema>;
export type ApprovalResponse = z.infer<typeof approvalResponseSchema>;
export type InteractionResponse = z.infer<typeof interactionResponseSchema>;
