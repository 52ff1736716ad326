/** Process exit codes of `relvo-codex`, documented in `--help` and the README. */
export const EXIT = {
  /** The turn succeeded (doctor: no problem found). */
  ok: 0,
  /** The turn failed. */
  failed: 1,
  /** Bad arguments or a bad host config file. */
  usage: 2,
  /** No codex found, or its version is outside the reviewed window. */
  codex: 3,
  /** `run --output-schema`: the final answer is not JSON that matches the schema. */
  schemaMismatch: 4,
  /** The person interrupted the turn (Ctrl-C); with `run`, the second Ctrl-C disposes the session. */
  interrupted: 130,
  /** `run --timeout` was reached: the turn was interrupted, the session closed. */
  timedOut: 124,
  /** stdout's reader went away (`| head`): the turn was interrupted, the session closed. */
  stdoutClosed: 141,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = `Exit codes:
  0    the turn succeeded (doctor: nothing to fix; attach: the session ended)
  1    the turn failed (doctor: a problem other than the codex version)
  2    usage error (bad option, unreadable or invalid config file, unknown profile, a bad
       --cwd or event log, ./relvo.config.json not named with --config)
  3    codex not found, or its version is outside the reviewed window
  4    run --output-schema: the final answer is not JSON that matches the schema
  124  run: --timeout reached; the turn is interrupted, the session closed
  130  interrupted by Ctrl-C (run: the first Ctrl-C interrupts the turn, the second quits;
       attach: detached, the session left running)
  141  run: stdout's reader went away (e.g. \`| head\`); the turn is interrupted, the session closed
  143  ended by SIGTERM · 129 ended by SIGHUP (the session is disposed first)`;

/** An error that ends the command with a given exit code and a one-line message. */
export class CliExit extends Error {
  constructor(
    readonly code: ExitCode,
    message: string,
  ) {
    super(message);
    this.name = 'CliExit';
  }
}
