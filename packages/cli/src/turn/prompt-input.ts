/**
 * Where the prompt of `run` comes from: the argument, or stdin when the argument is `-` or
 * absent and stdin is not a terminal (`relvo-codex run - < f`). With both a prompt and a piped
 * stdin (`git diff | relvo-codex run "Review this"`), stdin follows the prompt as a delimited
 * `<stdin>` block, as `codex exec` does: nothing piped in is dropped without a word.
 */
import { CliExit, EXIT } from '../exit-codes.js';

/** More than this from stdin is refused rather than sent as a prompt. */
export const STDIN_PROMPT_MAX_BYTES = 1024 * 1024;

/** How long stdin may stay open, unfinished, before a line says what the run waits for. */
export const STDIN_HINT_AFTER_MS = 3_000;

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Text, or a refusal: a model prompt is never NUL bytes or broken UTF-8 (a binary file). */
function decodeText(buffer: Buffer): string {
  if (buffer.includes(0)) {
    throw new CliExit(
      EXIT.usage,
      'run: stdin holds binary data (NUL bytes); pipe text, or refer to the file in the workspace instead',
    );
  }
  try {
    return fatalUtf8.decode(buffer);
  } catch {
    throw new CliExit(
      EXIT.usage,
      'run: stdin is not valid UTF-8 text; pipe text, or refer to the file in the workspace instead',
    );
  }
}

async function readAll(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > STDIN_PROMPT_MAX_BYTES) {
      throw new CliExit(
        EXIT.usage,
        `run: stdin is larger than ${STDIN_PROMPT_MAX_BYTES} bytes; shorten it, or refer to a file in the workspace instead`,
      );
    }
    chunks.push(buffer);
  }
  return decodeText(Buffer.concat(chunks));
}

/** Reads stdin; a line on stderr if it stays open long enough that a person may wonder why. */
async function readWithHint(
  stdin: NodeJS.ReadableStream,
  note: (line: string) => void,
  hint: string,
  hintAfterMs: number,
): Promise<string> {
  const timer = setTimeout(() => {
    note(hint);
  }, hintAfterMs);
  try {
    return await readAll(stdin);
  } finally {
    clearTimeout(timer);
  }
}

/** The prompt followed by what was piped in, fenced so the model can tell them apart. */
export function withStdinBlock(prompt: string, piped: string): string {
  const body = piped.endsWith('\n') ? piped : `${piped}\n`;
  return `${prompt}\n\n<stdin>\n${body}</stdin>`;
}

export interface PromptSource {
  readonly prompt: string;
  /** The whole prompt came from stdin. */
  readonly fromStdin: boolean;
  /** Bytes of stdin appended to the argument as a `<stdin>` block (0: none). */
  readonly appendedBytes: number;
}

export async function resolvePrompt(
  argument: string | undefined,
  stdin: NodeJS.ReadStream,
  note: (line: string) => void = () => undefined,
  hintAfterMs = STDIN_HINT_AFTER_MS,
): Promise<PromptSource> {
  const tty: unknown = stdin.isTTY; // undefined on a pipe or a file
  if (argument !== undefined && argument !== '-') {
    if (tty === true) return { prompt: argument, fromStdin: false, appendedBytes: 0 };
    const piped = await readWithHint(
      stdin,
      note,
      'run: waiting for stdin to end (it is appended to the prompt); run with </dev/null to send none',
      hintAfterMs,
    );
    if (piped.trim() === '') return { prompt: argument, fromStdin: false, appendedBytes: 0 };
    return {
      prompt: withStdinBlock(argument, piped),
      fromStdin: false,
      appendedBytes: Buffer.byteLength(piped),
    };
  }
  if (argument === undefined && tty === true) {
    throw new CliExit(
      EXIT.usage,
      'run: no prompt; give one (`relvo-codex run "…"`), or pipe it in (`… | relvo-codex run -`)',
    );
  }
  // `run -` on a terminal: the person types the prompt, and must know how to finish it
  if (tty === true)
    note('reading the prompt from the terminal: type it, then Ctrl-D on a new line');
  const prompt = await readAll(stdin);
  if (prompt.trim() === '') throw new CliExit(EXIT.usage, 'run: the prompt on stdin is empty');
  return { prompt, fromStdin: true, appendedBytes: 0 };
}
