/**
 * An MCP server's form (`requestedSchema`, MCP 2025-11-25 `ElicitRequestFormParams`) as one
 * neutral question set, and the answers back as the form's `content` (ADR-0040). Each property
 * becomes one question under an adapter key: text for a string or a number (checked against its
 * bounds when answered), a choice for a boolean or an enum, a multi-select for an enum array.
 * An optional property gets a `skip` choice. What has no faithful question kind is refused.
 */
import { z } from 'zod';
import {
  questionSetRequestSchema,
  type JsonObject,
  type JsonValue,
  type QuestionSetRequest,
  type QuestionSetResponse,
} from '@relvo-labs/agent-provider';
import type { QuestionRefusalToken } from './native-question.js';

const text = z.string().nullish();
const constOption = z.strictObject({ const: z.string(), title: z.string() });
const stringProperty = z.strictObject({
  type: z.literal('string'),
  title: text,
  description: text,
  default: z.string().nullish(),
  minLength: z.int().min(0).nullish(),
  maxLength: z.int().min(0).nullish(),
  format: z.enum(['email', 'uri', 'date', 'date-time']).nullish(),
  enum: z.array(z.string()).nullish(),
  enumNames: z.array(z.string()).nullish(),
  oneOf: z.array(constOption).nullish(),
});
const numberProperty = z.strictObject({
  type: z.enum(['number', 'integer']),
  title: text,
  description: text,
  default: z.number().nullish(),
  minimum: z.number().nullish(),
  maximum: z.number().nullish(),
});
const booleanProperty = z.strictObject({
  type: z.literal('boolean'),
  title: text,
  description: text,
  default: z.boolean().nullish(),
});
const arrayProperty = z.strictObject({
  type: z.literal('array'),
  title: text,
  description: text,
  default: z.array(z.string()).nullish(),
  minItems: z.int().min(0).nullish(),
  maxItems: z.int().min(0).nullish(),
  items: z.union([
    z.strictObject({ type: z.literal('string'), enum: z.array(z.string()) }),
    z.strictObject({ anyOf: z.array(constOption) }),
  ]),
});
const propertySchema = z.discriminatedUnion('type', [
  stringProperty,
  numberProperty,
  booleanProperty,
  arrayProperty,
]);
type FormProperty = z.infer<typeof propertySchema>;

export const formSchemaSchema = z.strictObject({
  $schema: z.string().nullish(),
  type: z.literal('object'),
  properties: z.record(z.string(), z.unknown()),
  required: z.array(z.string()).nullish(),
});

export const SKIP_VALUE = 'skip';
const MAX_FORM_FIELDS = 32;

/** How one answer becomes the property's value. Private: native names never leave the plan. */
interface FieldPlan {
  readonly key: string;
  readonly name: string;
  readonly property: FormProperty;
  /** Neutral choice value → the native value it stands for. */
  readonly values: ReadonlyMap<string, JsonValue>;
}
export interface FormPlan {
  readonly fields: readonly FieldPlan[];
}

export type FormTranslation =
  | { readonly ok: true; readonly request: QuestionSetRequest; readonly plan: FormPlan }
  | { readonly ok: false; readonly token: QuestionRefusalToken };

/** Shown text for one property: title or name, its description, its bounds and default. */
type Shown = (value: string, max: number) => string;

function hint(property: FormProperty): string {
  const parts: string[] = [];
  if (property.type === 'integer' || property.type === 'number') {
    parts.push(property.type === 'integer' ? 'a whole number' : 'a number');
    if (typeof property.minimum === 'number') parts.push(`at least ${property.minimum}`);
    if (typeof property.maximum === 'number') parts.push(`at most ${property.maximum}`);
  }
  if (property.type === 'string') {
    if (typeof property.minLength === 'number')
      parts.push(`at least ${property.minLength} characters`);
    if (typeof property.maxLength === 'number')
      parts.push(`at most ${property.maxLength} characters`);
    if (typeof property.format === 'string') parts.push(`format ${property.format}`);
  }
  if (property.default !== null && property.default !== undefined)
    parts.push(`default ${JSON.stringify(property.default)}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

function choicesOf(property: FormProperty): [string, JsonValue][] | undefined {
  if (property.type === 'boolean')
    return [
      ['Yes', true],
      ['No', false],
    ];
  if (property.type === 'string') {
    if (property.oneOf) return property.oneOf.map((o) => [o.title, o.const]);
    if (property.enum) {
      const names = property.enumNames;
      return property.enum.map((v, i) => [names?.[i] ?? v, v]);
    }
    return undefined;
  }
  if (property.type === 'array') {
    const items = property.items;
    return 'anyOf' in items
      ? items.anyOf.map((o) => [o.title, o.const])
      : items.enum.map((v) => [v, v]);
  }
  return undefined;
}

export function translateForm(schema: unknown, intro: string, shown: Shown): FormTranslation {
  const parsed = formSchemaSchema.safeParse(schema);
  if (!parsed.success) return { ok: false, token: 'schema_unsupported' };
  const required = new Set(parsed.data.required ?? []);
  // codex sends the properties sorted by name; that order is kept
  const entries = Object.entries(parsed.data.properties);
  if (entries.length === 0 || entries.length > MAX_FORM_FIELDS)
    return { ok: false, token: 'question_count' };
  const fields: FieldPlan[] = [];
  const questions: JsonObject[] = [];
  for (const [index, [name, raw]] of entries.entries()) {
    const property = propertySchema.safeParse(raw);
    if (!property.success) return { ok: false, token: 'schema_unsupported' };
    const p = property.data;
    const key = `q${index + 1}`;
    const label = shown(p.title ?? name, 200);
    const description = typeof p.description === 'string' ? `: ${shown(p.description, 2000)}` : '';
    const field = `${label}${description}${hint(p)}`;
    const prompt = index === 0 ? `${intro}\n\n${field}` : field;
    const values = new Map<string, JsonValue>();
    const choices = (choicesOf(p) ?? []).map(([title, value], i) => {
      values.set(`o${i + 1}`, value);
      return { value: `o${i + 1}`, label: shown(title, 400) || `option ${i + 1}` };
    });
    const optional = !required.has(name);
    if (optional) choices.push({ value: SKIP_VALUE, label: 'Skip (leave unanswered)' });
    const freeText =
      p.type === 'string'
        ? p.enum == null && p.oneOf == null
        : p.type !== 'boolean' && p.type !== 'array';
    questions.push({
      key,
      prompt,
      header: label,
      ...(choices.length > 0 ? { choices } : {}),
      multiSelect: p.type === 'array',
      allowFreeText: freeText,
      sensitive: false,
    });
    fields.push({ key, name, property: p, values });
  }
  const request = questionSetRequestSchema.safeParse({ kind: 'question_set', questions });
  if (!request.success) return { ok: false, token: 'neutral_bounds' };
  return { ok: true, request: request.data, plan: { fields } };
}

type Built = { ok: true; value: JsonValue | undefined } | { ok: false; reason: string };

function fromText(property: FormProperty, answer: string): Built {
  if (property.type === 'string') {
    const n = answer.length;
    if (typeof property.minLength === 'number' && n < property.minLength)
      return { ok: false, reason: 'answer_too_short' };
    if (typeof property.maxLength === 'number' && n > property.maxLength)
      return { ok: false, reason: 'answer_too_long' };
    return { ok: true, value: answer };
  }
  if (property.type === 'integer' || property.type === 'number') {
    const trimmed = answer.trim();
    const shape = property.type === 'integer' ? /^-?\d+$/ : /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
    const value = Number(trimmed);
    if (!shape.test(trimmed) || !Number.isFinite(value))
      return { ok: false, reason: 'not_a_number' };
    if (property.type === 'integer' && !Number.isSafeInteger(value))
      return { ok: false, reason: 'not_a_number' };
    if (typeof property.minimum === 'number' && value < property.minimum)
      return { ok: false, reason: 'below_minimum' };
    if (typeof property.maximum === 'number' && value > property.maximum)
      return { ok: false, reason: 'above_maximum' };
    return { ok: true, value };
  }
  return { ok: false, reason: 'unexpected_text' };
}

function fromSelection(field: FieldPlan, selected: readonly string[]): Built {
  if (selected.includes(SKIP_VALUE)) {
    return selected.length === 1
      ? { ok: true, value: undefined }
      : { ok: false, reason: 'skip_with_values' };
  }
  const values: JsonValue[] = [];
  for (const v of selected) {
    const value = field.values.get(v);
    if (value === undefined) return { ok: false, reason: 'unknown_value' };
    values.push(value);
  }
  const p = field.property;
  if (p.type !== 'array') return { ok: true, value: values[0] };
  if (typeof p.minItems === 'number' && values.length < p.minItems)
    return { ok: false, reason: 'too_few_selected' };
  if (typeof p.maxItems === 'number' && values.length > p.maxItems)
    return { ok: false, reason: 'too_many_selected' };
  return { ok: true, value: values };
}

/** The form's `content`: own keys only, a skipped property left out. */
export function buildFormContent(
  plan: FormPlan,
  answers: QuestionSetResponse['answers'],
): { ok: true; response: JsonObject } | { ok: false; reason: string } {
  const pairs: [string, JsonValue][] = [];
  for (const field of plan.fields) {
    const answer = Object.hasOwn(answers, field.key) ? answers[field.key] : undefined;
    if (answer === undefined) return { ok: false, reason: 'missing_answer' };
    const built =
      answer.type === 'text'
        ? fromText(field.property, answer.text)
        : fromSelection(field, answer.values);
    if (!built.ok) return built;
    if (built.value !== undefined) pairs.push([field.name, built.value]);
  }
  return { ok: true, response: Object.fromEntries(pairs) };
}
