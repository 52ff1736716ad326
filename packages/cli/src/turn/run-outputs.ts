/**
 * `run -o FILE` and `run --output-schema FILE`, as `codex exec` has them: the final agent message
 * written to a file, and a JSON Schema the answer must match — the codex adapter validates it
 * and delivers the value (`codex` / `structured_output`), which is printed on stdout as one line
 * of JSON; a mismatch exits 4.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { jsonObjectSchema, type JsonObject, type RunTermination } from '@relvo-labs/agent-provider';
import type { EventEnvelope } from '@relvo-labs/agent-runtime';
import { CliExit, EXIT, type ExitCode } from '../exit-codes.js';
import type { Output } from '../ui/output.js';

/** The most schema text read; the adapter refuses a larger schema anyway. */
const MAX_SCHEMA_BYTES = 65_536;

function causeOf(error: unknown): string {
  const code: unknown = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unreadable';
}

/** The schema file as a JSON object; anything else is a usage error that never quotes it. */
export function readOutputSchema(file: string, cwd: string): JsonObject {
  let text: string;
  try {
    const path = resolve(cwd, file);
    if (statSync(path).size > MAX_SCHEMA_BYTES) {
      throw new CliExit(
        EXIT.usage,
        `--output-schema: the file is larger than ${MAX_SCHEMA_BYTES} bytes; give a smaller JSON Schema`,
      );
    }
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof CliExit) throw error;
    throw new CliExit(
      EXIT.usage,
      `--output-schema: the file could not be read (${causeOf(error)}); name a readable JSON Schema file`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const schema = jsonObjectSchema.safeParse(parsed);
  if (!schema.success) {
    throw new CliExit(
      EXIT.usage,
      '--output-schema: the file is not a JSON object; give a JSON Schema such as {"type":"object",…}',
    );
  }
  return schema.data;
}

/** Where `-o` writes, checked before the turn: its folder must exist. */
export function lastMessagePath(file: string, cwd: string): string {
  const path = resolve(cwd, file);
  if (!existsSync(dirname(path))) {
    throw new CliExit(
      EXIT.usage,
      '-o/--output-last-message: the folder of that file does not exist; create it or name another file',
    );
  }
  return path;
}

/**
 * Collects what a turn's envelopes say for these options. The final message is the text the
 * run streamed after its last tool call (the deltas carry no message boundary of their own).
 */
export class RunOutputs {
  #message = '';
  #afterTool = false;
  #value: { readonly value: unknown } | undefined;

  constructor(
    private readonly options: {
      readonly lastMessageFile?: string | undefined;
      readonly structured: boolean;
    },
  ) {}

  onEnvelope(envelope: EventEnvelope): void {
    const p = envelope.payload;
    if (p.type === 'run.started') {
      this.#message = '';
      this.#afterTool = false;
      this.#value = undefined;
    } else if (p.type === 'run.tool_activity') {
      this.#afterTool = true;
    } else if (p.type === 'run.message_delta') {
      if (this.#afterTool) this.#message = '';
      this.#afterTool = false;
      this.#message += p.text;
    } else if (
      p.type === 'run.extension' &&
      p.namespace === 'codex' &&
      p.kind === 'structured_output'
    ) {
      this.#value = { value: p.data.value };
    }
  }

  /**
   * A turn ended: `-o` gets its message, the structured value is printed (human mode: in
   * `--json` its envelope is already on stdout). Returns the exit code these options decide.
   */
  finish(termination: RunTermination, out: Output): ExitCode | undefined {
    const file = this.options.lastMessageFile;
    let code: ExitCode | undefined;
    if (file !== undefined) {
      try {
        writeFileSync(file, this.#message);
      } catch (error) {
        out.warn(`-o/--output-last-message: the file could not be written (${causeOf(error)})`);
        code = EXIT.failed;
      }
    }
    if (!this.options.structured) return code;
    if (this.#value !== undefined && !out.json) out.jsonLine(this.#value.value);
    const failed = termination.outcome === 'failed' ? termination.error.providerCode : undefined;
    if (failed === 'output_schema_mismatch') return EXIT.schemaMismatch;
    if (failed === 'invalid_output_schema') return EXIT.usage;
    return code;
  }
}

/** What `--output-schema` and `-o` name, read and checked before anything starts. */
export function runOutputsFor(
  options: {
    readonly outputSchema?: string | undefined;
    readonly outputLastMessage?: string | undefined;
  },
  cwd: string,
): { readonly outputSchema: JsonObject | undefined; readonly outputs: RunOutputs } {
  const outputSchema =
    options.outputSchema === undefined ? undefined : readOutputSchema(options.outputSchema, cwd);
  const lastMessageFile =
    options.outputLastMessage === undefined
      ? undefined
      : lastMessagePath(options.outputLastMessage, cwd);
  return {
    outputSchema,
    outputs: new RunOutputs({ lastMessageFile, structured: outputSchema !== undefined }),
  };
}
