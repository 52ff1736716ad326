import { captureJson, turnInputSchema, type TurnInput } from '@relvo-labs/agent-provider';
import { RuntimeError } from '../errors.js';

/*
 * A host's turn input, judged once. A string (what most hosts send) becomes one text part: its
 * text is judged by the text part's own member schema and the value built here, instead of
 * capturing and parsing the whole input schema (adr/0035). Anything else takes the full road.
 * The log gets its own frozen copy, remembered here, so that `turn.started` need not judge it
 * again; the provider gets a copy of its own, as before, which it may do with as it likes.
 */

// the text part comes first in the union: were it moved, this would not compile
const [textPart] = turnInputSchema.shape.parts.element.options;
const textSchema = textPart.shape.text;

/** Inputs this module built for the log: frozen and valid by construction. */
const judged = new WeakSet<object>();

/** True for an input `turnInputs` built for the log (frozen, judged). */
export function isJudgedTurnInput(value: unknown): boolean {
  return typeof value === 'object' && value !== null && judged.has(value);
}

export interface TurnInputs {
  /** What the provider receives. */
  readonly input: TurnInput;
  /** What `turn.started` records: a judged frozen copy, or the input itself (judged by the log). */
  readonly logged: TurnInput;
}

function refused(): RuntimeError {
  return new RuntimeError(
    'invalid_request',
    'turn_input_invalid',
    'the turn input does not parse as a TurnInput',
  );
}

export function turnInputs(input: string | TurnInput): TurnInputs {
  if (typeof input === 'string') {
    if (!textSchema.safeParse(input).success) throw refused();
    const part = Object.freeze({ type: 'text' as const, text: input });
    const logged: TurnInput = Object.freeze({ parts: Object.freeze([part]) as TurnInput['parts'] });
    judged.add(logged);
    return { input: { parts: [{ type: 'text', text: input }] }, logged };
  }
  const value = toTurnInput(input);
  return { input: value, logged: value };
}

/** The full road: capture (accessors, cycles, proxies refused) and the whole schema. */
export function toTurnInput(input: string | TurnInput): TurnInput {
  const value: unknown =
    typeof input === 'string' ? { parts: [{ type: 'text', text: input }] } : input;
  const captured = captureJson(value);
  const parsed = captured.ok ? turnInputSchema.safeParse(captured.value) : undefined;
  if (parsed?.success !== true) throw refused();
  return parsed.data;
}
