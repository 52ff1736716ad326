/** Where `run` takes its prompt from: the argument, stdin, or both (stdin as a block). */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CliExit } from '../src/exit-codes.js';
import { resolvePrompt, STDIN_PROMPT_MAX_BYTES } from '../src/turn/prompt-input.js';

function pipe(...chunks: (string | Buffer)[]): NodeJS.ReadStream {
  return Readable.from(
    chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)),
  ) as unknown as NodeJS.ReadStream;
}

function terminal(text: string): NodeJS.ReadStream {
  return Object.assign(pipe(text), { isTTY: true });
}

async function refusal(work: Promise<unknown>): Promise<CliExit> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof CliExit)) throw new Error('expected a CliExit');
  return error;
}

describe('resolvePrompt', () => {
  it('a prompt and a pipe: the pipe follows the prompt as a <stdin> block', async () => {
    const source = await resolvePrompt('Review this', pipe('diff --git a/x b/x\n', '+line\n'));
    expect(source.prompt).toBe('Review this\n\n<stdin>\ndiff --git a/x b/x\n+line\n</stdin>');
    expect(source.appendedBytes).toBe(25);
    expect(source.fromStdin).toBe(false);
  });

  it('a prompt and an empty pipe (</dev/null): the prompt alone', async () => {
    expect((await resolvePrompt('hi', pipe())).prompt).toBe('hi');
  });

  it('a prompt on a terminal never reads stdin', async () => {
    const stdin = terminal('typed');
    expect((await resolvePrompt('hi', stdin)).prompt).toBe('hi');
    expect(stdin.readableEnded).toBe(false);
  });

  it('stdin alone is the prompt, unchanged', async () => {
    expect((await resolvePrompt(undefined, pipe('just this\n'))).prompt).toBe('just this\n');
    expect((await resolvePrompt('-', pipe('dash'))).fromStdin).toBe(true);
  });

  it('binary input is refused with exit 2, before anything is sent', async () => {
    const nul = await refusal(resolvePrompt('Review', pipe(Buffer.from([0x61, 0x00, 0x62]))));
    expect(nul.code).toBe(2);
    expect(nul.message).toContain('binary data (NUL bytes)');
    const latin1 = await refusal(resolvePrompt('-', pipe(Buffer.from([0x63, 0xe9, 0x20]))));
    expect(latin1.code).toBe(2);
    expect(latin1.message).toContain('not valid UTF-8');
  });

  it('more than the bound is refused (exit 2) and the refusal never echoes the input', async () => {
    const big = 'x'.repeat(STDIN_PROMPT_MAX_BYTES);
    const error = await refusal(resolvePrompt('Review', pipe(big, 'SECRET')));
    expect(error.code).toBe(2);
    expect(error.message).toContain(`larger than ${STDIN_PROMPT_MAX_BYTES} bytes`);
    expect(error.message).not.toContain('SECRET');
    expect(error.message).not.toContain('Review');
  });

  it('`run -` on a terminal says how to end the input (Ctrl-D)', async () => {
    const notes: string[] = [];
    const source = await resolvePrompt('-', terminal('typed prompt'), (l) => notes.push(l));
    expect(source.prompt).toBe('typed prompt');
    expect(notes.join('\n')).toContain('Ctrl-D');
  });

  it('a pipe that stays open gets a line saying what the run waits for', async () => {
    const notes: string[] = [];
    const stream = new Readable({ read: () => undefined });
    const pending = resolvePrompt(
      'hi',
      stream as unknown as NodeJS.ReadStream,
      (l) => notes.push(l),
      5,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(notes.join('\n')).toContain('waiting for stdin to end');
    stream.push('late');
    stream.push(null);
    expect((await pending).prompt).toContain('<stdin>\nlate\n</stdin>');
  });
});
