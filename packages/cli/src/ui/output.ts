/**
 * Where output goes. `--json`: stdout carries only envelopes, one per line. Human mode: the
 * model's text on stdout, everything else on stderr. Colour and the spinner only on a TTY,
 * never with NO_COLOR or --no-color / --color never; `--color always` colours a pipe too (an
 * explicit flag wins over NO_COLOR, as no-color.org asks). A reader that goes away (`| head`) closes stdout: what
 * would have gone there is dropped, quietly, and the command is told (`onStdoutClosed`).
 */
import { stripVTControlCharacters } from 'node:util';
import picocolors from 'picocolors';
import yoctoSpinner from 'yocto-spinner';
import { jsonForTerminal, neutraliseProse } from './neutralise.js';

export type Colors = ReturnType<typeof picocolors.createColors>;

/** `--color WHEN`, as `codex exec` spells it. */
export const COLOR_MODES = ['auto', 'always', 'never'] as const;
export type ColorMode = (typeof COLOR_MODES)[number];

export interface OutputOptions {
  readonly json: boolean;
  /** `--color WHEN`; commander's `--no-color` gives false (never), its absence true or undefined (auto). */
  readonly color: boolean | ColorMode | undefined;
  readonly env?: NodeJS.ProcessEnv;
  readonly stdout?: NodeJS.WriteStream;
  readonly stderr?: NodeJS.WriteStream;
}

export interface Spinner {
  update(text: string): void;
  succeed(text: string): void;
  fail(text: string): void;
  stop(): void;
}

export interface Output {
  readonly json: boolean;
  readonly c: Colors;
  readonly interactive: boolean;
  /** A status line for a person (stderr). */
  note(line: string): void;
  warn(line: string): void;
  error(line: string): void;
  /** Model text, streamed as it comes, neutralised (stdout in human mode; not in --json mode). */
  text(chunk: string): void;
  /** A line that is the command's own result (doctor's report, a log's timeline): stdout. */
  print(line: string): void;
  /** One JSON value as one line on stdout. */
  jsonLine(value: unknown): void;
  spinner(text: string): Spinner;
  /** stdout's reader went away (EPIPE): nothing more is written there. */
  readonly stdoutClosed: boolean;
  /** Called once when stdout's reader goes away. */
  onStdoutClosed(listener: () => void): void;
}

/** A write to a pipe whose reader has gone: the end of the output, not a crash. */
function isClosedPipe(error: unknown): boolean {
  const code: unknown = (error as { code?: unknown } | null)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

export function colorEnabled(
  stream: NodeJS.WriteStream,
  wanted: boolean | ColorMode | undefined,
  env: NodeJS.ProcessEnv,
): boolean {
  if (wanted === false || wanted === 'never') return false;
  if (wanted === 'always') return true;
  const noColor = env.NO_COLOR;
  if (noColor !== undefined && noColor !== '') return false;
  // a pipe has no isTTY at all, and picocolors treats `undefined` as "decide yourself" (it says yes under CI)
  const tty: unknown = stream.isTTY; // typed boolean, but undefined on a pipe
  return tty === true;
}

const silentSpinner: Spinner = {
  update: () => undefined,
  succeed: () => undefined,
  fail: () => undefined,
  stop: () => undefined,
};

export function createOutput(options: OutputOptions): Output {
  const env = options.env ?? process.env;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const colored = colorEnabled(stderr, options.color, env);
  const c = picocolors.createColors(colored);
  const stdoutColored = colored && colorEnabled(stdout, options.color, env);
  const stderrTty: unknown = stderr.isTTY;
  // the spinner library's own test: in a CI log or a dumb terminal it would draw a line per frame
  const interactive = stderrTty === true && env.TERM !== 'dumb' && !('CI' in env);
  let midLine = false;
  let closed = false;
  const closedListeners: (() => void)[] = [];
  // without a listener, EPIPE is an uncaught exception: a stack trace and exit 1
  stdout.on('error', (error: unknown) => {
    if (!isClosedPipe(error)) throw error;
    if (closed) return;
    closed = true;
    for (const listener of closedListeners.splice(0)) listener();
  });
  const write = (text: string): void => {
    if (!closed) stdout.write(text);
  };
  const line = (text: string): void => {
    if (midLine && !options.json) {
      write('\n');
      midLine = false;
    }
    stderr.write(`${text}\n`);
  };
  return {
    get stdoutClosed() {
      return closed;
    },
    onStdoutClosed: (listener) => {
      if (closed) listener();
      else closedListeners.push(listener);
    },
    json: options.json,
    c,
    interactive,
    note: line,
    warn: (text) => {
      line(c.yellow(text));
    },
    error: (text) => {
      line(c.red(text));
    },
    text: (chunk) => {
      if (options.json || chunk === '') return;
      write(neutraliseProse(chunk));
      midLine = !chunk.endsWith('\n');
    },
    print: (text) => {
      if (midLine) write('\n');
      midLine = false;
      // colours were chosen for stderr; a redirected stdout gets plain text
      write(`${stdoutColored ? text : stripVTControlCharacters(text)}\n`);
    },
    jsonLine: (value) => {
      write(`${jsonForTerminal(value)}\n`);
    },
    spinner: (text) => {
      // A spinner is decoration for a person watching; never in logs or pipes.
      if (!interactive || !colored) {
        line(text);
        return { ...silentSpinner, succeed: line, fail: line };
      }
      // its own signal handlers call process.exit: ours must run the clean-up instead
      const spin = yoctoSpinner({ text, stream: stderr, handleSignals: false }).start();
      return {
        update: (t) => {
          spin.text = t;
        },
        succeed: (t) => {
          spin.success(t);
        },
        fail: (t) => {
          spin.error(t);
        },
        stop: () => {
          spin.stop();
        },
      };
    },
  };
}
