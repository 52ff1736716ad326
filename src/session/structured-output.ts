/**
 * Structured output (ADR-0041): codex forwards a turn's `outputSchema` to the model and
 * validates nothing, returning the final message as text. The adapter compiles the schema when
 * the run is admitted and checks the final message against it: a JSON value that validates is
 * delivered as the `codex` / `structured_output` extension event; anything else fails the run
 * with a bounded reason that never echoes the answer.
 */
import type {
  JsonObject,
  JsonValue,
  ProviderRejection,
  ProviderRunTermination,
} from '@relvo-labs/agent-provider';
import { compileHostSchema, type ValidateFunction } from '../shared/ajv.js';
import { codexError, codexRejection } from '../shared/codex-error.js';

/** The most schema text the adapter compiles and sends. */
export const MAX_OUTPUT_SCHEMA_CHARS = 65_536;
/**
 * The most final-message text the adapter parses as the structured answer: what a
 * `run.extension`'s data may hold (200,000 characters as JSON) less the `{"value":…}` wrapper.
 */
export const MAX_STRUCTURED_OUTPUT_CHARS = 199_000;

export interface StructuredOutput {
  readonly schema: JsonObject;
  readonly validate: ValidateFunction;
}

/** Compiles `schema`; a schema that is too large or does not compile is refused before sending. */
export function compileOutputSchema(
  schema: JsonObject,
):
  | { readonly ok: true; readonly output: StructuredOutput }
  | { readonly ok: false; readonly rejection: ProviderRejection } {
  const refused = (reason: string): { ok: false; rejection: ProviderRejection } => ({
    ok: false,
    rejection: codexRejection('invalid_request', 'the output schema is not usable', {
      providerCode: 'invalid_output_schema',
      details: { reason },
    }),
  });
  if (JSON.stringify(schema).length > MAX_OUTPUT_SCHEMA_CHARS) return refused('too_large');
  try {
    return { ok: true, output: { schema, validate: compileHostSchema(schema) } };
  } catch {
    return refused('does_not_compile');
  }
}

/**
 * The final message checked against the schema: the extension event to emit and the run's
 * termination, or the failed termination.
 */
export function checkStructuredOutput(
  output: StructuredOutput,
  finalText: string,
):
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly termination: ProviderRunTermination } {
  const failed = (reason: 'not_json' | 'too_large' | 'schema_mismatch') => ({
    ok: false as const,
    termination: {
      outcome: 'failed' as const,
      error: codexError('provider_rejected', 'the final message does not match the output schema', {
        providerCode: 'output_schema_mismatch',
        details: { reason },
      }),
    },
  });
  if (finalText.length > MAX_STRUCTURED_OUTPUT_CHARS) return failed('too_large');
  let value: JsonValue;
  try {
    value = JSON.parse(finalText) as JsonValue;
  } catch {
    return failed('not_json');
  }
  return output.validate(value) ? { ok: true, value } : failed('schema_mismatch');
}
