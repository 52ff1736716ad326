/**
 * What a turn asks of its provider run besides input (ADR-0041): `outputSchema`, `model`,
 * `effort`, `summary`, from `submitTurn` and the profile's `run` defaults. Each is checked before
 * the turn exists: an unknown key is named, a bad value is refused by key (never echoed), and a
 * provider that does not declare the option refuses it.
 */
import {
  captureJson,
  canSetRunOption,
  jsonObjectSchema,
  runOptionsSchema,
  type JsonObject,
  type ProviderDescriptor,
  type RunSummary,
} from '@relvo-labs/agent-provider';
import { RuntimeError } from '../errors.js';

/** A profile's `run` key: the options every turn on it starts with. */
export const profileRunSchema = runOptionsSchema.extend({
  outputSchema: jsonObjectSchema.optional(),
});

export interface TurnRunOptions {
  readonly model?: string;
  readonly effort?: string;
  readonly summary?: RunSummary;
  readonly outputSchema?: JsonObject;
}

/** Only the members that are set (a parsed schema's optional members may hold undefined). */
function setOnly(options: {
  readonly [K in keyof TurnRunOptions]?: TurnRunOptions[K] | undefined;
}): TurnRunOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}

const SUBMIT_KEYS: ReadonlySet<string> = new Set([
  'input',
  'profile',
  'outputSchema',
  'model',
  'effort',
  'summary',
]);
const OPTION_KEYS = ['model', 'effort', 'summary'] as const;
const MAX_KEY = 64;

/** The run options of one `submitTurn` call; throws a typed refusal naming the key. */
export function readTurnOptions(options: object): TurnRunOptions {
  for (const key of Object.keys(options)) {
    if (!SUBMIT_KEYS.has(key)) {
      const option = key.slice(0, MAX_KEY);
      throw new RuntimeError(
        'invalid_request',
        'turn_option_unknown',
        `submitTurn: unknown option "${option}"`,
        {
          details: { option },
        },
      );
    }
  }
  const given = options as Partial<Record<(typeof OPTION_KEYS)[number] | 'outputSchema', unknown>>;
  const picked: Record<string, unknown> = {};
  for (const key of OPTION_KEYS) if (given[key] !== undefined) picked[key] = given[key];
  const parsed = runOptionsSchema.safeParse(picked);
  if (!parsed.success) {
    const option = String(parsed.error.issues[0]?.path[0] ?? 'unknown');
    throw new RuntimeError(
      'invalid_request',
      'turn_option_invalid',
      `submitTurn: ${option} is not usable`,
      {
        details: { option },
      },
    );
  }
  const outputSchema = toOutputSchema(given.outputSchema);
  return setOnly({ ...parsed.data, outputSchema });
}

function toOutputSchema(schema: unknown): JsonObject | undefined {
  if (schema === undefined) return undefined;
  const captured = captureJson(schema);
  const value = captured.ok ? captured.value : undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RuntimeError(
      'invalid_request',
      'output_schema_invalid',
      'the output schema is not a JSON object',
    );
  }
  return value;
}

/** The turn's own options over its profile's; each refused when the provider does not declare it. */
export function runOptionsFor(
  descriptor: ProviderDescriptor,
  profileDefaults: Parameters<typeof setOnly>[0] | undefined,
  turn: TurnRunOptions,
): TurnRunOptions {
  const merged: TurnRunOptions = { ...setOnly(profileDefaults ?? {}), ...turn };
  if (merged.outputSchema !== undefined && !descriptor.run.structuredOutput) {
    throw new RuntimeError(
      'capability_unsupported',
      'structured_output_unsupported',
      'the provider of this profile does not support an output schema',
      { details: { capability: 'run.structuredOutput' } },
    );
  }
  for (const key of OPTION_KEYS) {
    if (merged[key] === undefined) continue;
    const check = canSetRunOption(descriptor, key);
    if (!check.ok) {
      throw new RuntimeError(
        'capability_unsupported',
        'run_option_unsupported',
        check.error.message,
        {
          details: { option: key, capability: `run.options.${key}` },
        },
      );
    }
  }
  return merged;
}
