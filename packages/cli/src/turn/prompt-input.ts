/**
 * Where the prompt of `run` comes from: the argument, or stdin when the argument is `-` or
 * absent and stdin is not a terminal (`git diff | relvo-codex run` or `relvo-codex run - < f`).
 */
import { CliExit, EXIT } from '../exit-codes.js';

/** More than this from stdin is refused rather than sent as a prompt. */
export const STDIN_PROMPT_MAX_BYTES = 1024 * 1024;

async function readAll(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > STDIN_PROMPT_MAX_BYTES) {
      throw new CliExit(
        EXIT.usage,
        `run: the prompt on stdin is larger than ${STDIN_PROMPT_MAX_BYTES} bytes; shorten it, or refer to a file in the workspace instead`,
      );
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function resolvePrompt(
  argument: string | undefined,
  stdin: NodeJS.ReadStream,
): Promise<{ readonly prompt: string; readonly fromStdin: boolean }> {
  if (argument !== undefined && argument !== '-') return { prompt: argument, fromStdin: false };
  const tty: unknown = stdin.isTTY; // undefined on a pipe or a file
  if (argument === undefined && tty === true) {
    throw new CliExit(
      EXIT.usage,
      'run: no prompt; give one (`relvo-codex run "…"`), or pipe it in (`… | relvo-codex run -`)',
    );
  }
  const prompt = await readAll(stdin);
  if (prompt.trim() === '') throw new CliExit(EXIT.usage, 'run: the prompt on stdin is empty');
  return { prompt, fromStdin: true };
}
