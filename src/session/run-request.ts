/**
 * Everything `startRun` checks before anything is sent: the sink, the
 * runRef, the SPI's input bounds, the most codex accepts, and the input's fingerprint that makes
 * `runRef` an idempotency key rather than a way to get another run's outcome.
 */
import { createHash } from 'node:crypto';
import {
  captureJson,
  runOptionsSchema,
  turnInputSchema,
  type RunOptions,
  type ProviderEventSink,
  type ProviderRejection,
  type TurnInput,
} from '@relvo-labs/agent-provider';
import type { z } from 'zod';
import { CODEX_MAX_INPUT_CHARS } from '../constants.js';
import { codexRejection } from '../shared/codex-error.js';
import { issuePaths } from '../shared/issue-paths.js';
import { compileOutputSchema, type StructuredOutput } from './structured-output.js';

/** Parts are sent as one text item, joined by a blank line. */
export const PART_SEPARATOR = '\n\n';

export interface CheckedRunRequest {
  readonly runRef: string;
  readonly sink: ProviderEventSink;
  readonly input: TurnInput;
  /** Identifies the input: the same runRef with another fingerprint is a conflict. */
  readonly fingerprint: string;
  readonly structured?: StructuredOutput;
  /** The run's own model, effort and summary (ADR-0041); empty when it sets none. */
  readonly options: RunOptions;
}

export type RunRequestCheck =
  | { readonly ok: true; readonly request: CheckedRunRequest }
  | { readonly ok: false; readonly rejection: ProviderRejection };

function refused(rejection: ProviderRejection): {
  readonly ok: false;
  readonly rejection: ProviderRejection;
} {
  return { ok: false, rejection };
}

function isSink(value: unknown): value is ProviderEventSink {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { emit?: unknown }).emit === 'function'
  );
}

function isEscapingFileRef(issue: z.core.$ZodIssue): boolean {
  const [parts, , field] = issue.path;
  return (
    issue.code === 'invalid_format' &&
    issue.path.length === 3 &&
    parts === 'parts' &&
    field === 'path'
  );
}

/** Unicode code points, as codex counts its input bound; UTF-16 length is an upper bound. */
function codePoints(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        pairs += 1;
        i += 1;
      }
    }
  }
  return text.length - pairs;
}

/**
 * Reads the request once, defensively: a hostile proxy or a throwing getter anywhere in it is a
 * refusal, never a throw carrying the host's message.
 */
export function checkRunRequest(request: unknown): RunRequestCheck {
  let sink: unknown;
  let runRef: unknown;
  let rawInput: unknown;
  let rawSchema: unknown;
  let rawOptions: Record<string, unknown>;
  try {
    const r = request as {
      sink?: unknown;
      runRef?: unknown;
      input?: unknown;
      outputSchema?: unknown;
      model?: unknown;
      effort?: unknown;
      summary?: unknown;
    };
    sink = r.sink;
    runRef = r.runRef;
    rawInput = r.input;
    rawSchema = r.outputSchema;
    rawOptions = { model: r.model, effort: r.effort, summary: r.summary };
  } catch {
    return refused(codexRejection('invalid_request', 'the codex run request is malformed'));
  }
  if (!isSink(sink)) {
    return refused(
      codexRejection('invalid_request', 'a codex run needs a sink with an emit function', {
        providerCode: 'sink_missing',
      }),
    );
  }
  if (typeof runRef !== 'string' || runRef.length === 0) {
    return refused(
      codexRejection('invalid_request', 'a codex run needs a non-empty runRef', {
        providerCode: 'run_ref_missing',
      }),
    );
  }
  const checked = checkTurnInput(rawInput);
  if (!checked.ok) return checked;
  const input = checked.input;
  let structured: StructuredOutput | undefined;
  if (rawSchema !== undefined) {
    const captured = captureJson(rawSchema);
    const value = captured.ok ? captured.value : undefined;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return refused(
        codexRejection('invalid_request', 'the output schema is not a JSON object', {
          providerCode: 'invalid_output_schema',
        }),
      );
    }
    const compiled = compileOutputSchema(value);
    if (!compiled.ok) return refused(compiled.rejection);
    structured = compiled.output;
  }
  const options = checkRunOptions(rawOptions);
  if (!options.ok) return options;
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([input, structured?.schema ?? null, options.options]))
    .digest('hex');
  return {
    ok: true,
    request: {
      runRef,
      sink,
      input,
      fingerprint,
      options: options.options,
      ...(structured === undefined ? {} : { structured }),
    },
  };
}

/** The set members of `raw` as `RunOptions`; a value out of bounds names its key, never itself. */
function checkRunOptions(
  raw: Record<string, unknown>,
):
  | { readonly ok: true; readonly options: RunOptions }
  | { readonly ok: false; readonly rejection: ProviderRejection } {
  const set = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
  const parsed = runOptionsSchema.safeParse(set);
  if (parsed.success) return { ok: true, options: parsed.data };
  const option = String(parsed.error.issues[0]?.path[0] ?? 'unknown');
  return refused(
    codexRejection('invalid_request', `the run's ${option} is not usable`, {
      providerCode: 'invalid_run_option',
      details: { option },
    }),
  );
}

/** The SPI's input bounds and the most codex accepts (a run's input, or a steer's). */
export function checkTurnInput(
  rawInput: unknown,
):
  | { readonly ok: true; readonly input: TurnInput }
  | { readonly ok: false; readonly rejection: ProviderRejection } {
  let parsed: ReturnType<typeof turnInputSchema.safeParse>;
  try {
    parsed = turnInputSchema.safeParse(rawInput);
  } catch {
    return refused(
      codexRejection('invalid_request', 'the codex run input could not be read', {
        providerCode: 'invalid_input',
      }),
    );
  }
  if (!parsed.success) {
    // the SPI's own path rules (absolute, drive letter, `..`) say the reference escapes the
    // workspace: the same refusal as one that resolves outside it (ADR-0017)
    if (parsed.error.issues.every(isEscapingFileRef)) {
      return refused(
        codexRejection('invalid_request', 'a file reference resolves outside the workspace', {
          providerCode: 'file_ref_outside_workspace',
        }),
      );
    }
    return refused(
      codexRejection('invalid_request', 'the codex run input is invalid', {
        providerCode: 'invalid_input',
        details: { issues: issuePaths(parsed.error, 'input') },
      }),
    );
  }
  const input = parsed.data;
  const texts = input.parts.filter((p) => p.type === 'text');
  // file references only add to this; their resolved text is checked again (oversizedText)
  const tooLarge = oversized(texts, input.parts.length);
  if (tooLarge !== undefined) return { ok: false, rejection: tooLarge };
  return { ok: true, input };
}

/** The refusal for text over codex's bound, counted as codex counts it (code points). */
function oversized(
  texts: readonly { text: string }[],
  partCount: number,
): ProviderRejection | undefined {
  const separators = PART_SEPARATOR.length * (partCount - 1);
  // UTF-16 length is an upper bound: count code points only when it is over
  if (texts.reduce((n, p) => n + p.text.length, 0) + separators <= CODEX_MAX_INPUT_CHARS)
    return undefined;
  const actual = texts.reduce((n, p) => n + codePoints(p.text), 0) + separators;
  if (actual <= CODEX_MAX_INPUT_CHARS) return undefined;
  return codexRejection('invalid_request', 'the codex run input is longer than codex accepts', {
    providerCode: 'input_too_large',
    details: { maxChars: CODEX_MAX_INPUT_CHARS, actualChars: actual },
  });
}

/** The same bound on the one text item actually sent (after file references are resolved). */
export function oversizedText(text: string): ProviderRejection | undefined {
  return oversized([{ text }], 1);
}
