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

const USAGE = 'usage error: a bad or contradictory option, a typo (one relvo-codex: line)';
const CODEX = 'codex not found, or its version is outside the reviewed window';
const HOST = `${USAGE}; an unreadable or invalid config file, an unknown profile, a bad --cwd or event log`;

/** Each command's exit codes, as its `--help` lists them: only what that command returns. */
export const COMMAND_EXIT_CODES: Readonly<Record<string, readonly (readonly [number, string])[]>> =
  {
    demo: [
      [0, 'the turn succeeded'],
      [1, 'the turn failed, or codex could not start'],
      [2, USAGE],
      [3, CODEX],
      [130, 'interrupted by Ctrl-C'],
      [143, 'ended by SIGTERM (the session is disposed first)'],
      [129, 'ended by SIGHUP (the session is disposed first)'],
    ],
    run: [
      [0, 'the turn succeeded'],
      [1, 'the turn failed, or codex could not start'],
      [2, HOST],
      [3, CODEX],
      [4, '--output-schema: the final answer is not JSON that matches the schema'],
      [124, '--timeout reached; the turn is interrupted, the session closed'],
      [130, 'Ctrl-C: the first interrupts the turn, the second quits'],
      [141, "stdout's reader went away (e.g. `| head`); the turn is interrupted"],
      [143, 'ended by SIGTERM (the session is disposed first)'],
      [129, 'ended by SIGHUP (the session is disposed first)'],
    ],
    doctor: [
      [0, 'nothing to fix'],
      [1, 'a problem other than the codex version'],
      [2, USAGE],
      [3, CODEX],
    ],
    serve: [
      [0, 'stopped by Ctrl-C, SIGTERM or SIGHUP'],
      [2, `${HOST}; cannot listen on --host/--port`],
      [3, CODEX],
    ],
    models: [
      [0, 'the models are listed'],
      [1, 'codex could not list them'],
      [2, USAGE],
      [3, CODEX],
    ],
    sessions: [
      [0, 'listed (also when there is no event log yet)'],
      [1, 'the event log cannot be read'],
      [2, USAGE],
    ],
    log: [
      [0, 'printed'],
      [1, 'the event log cannot be read'],
      [2, `${USAGE}; no such session`],
    ],
    attach: [
      [0, 'the session ended'],
      [1, 'following the session failed'],
      [2, `${USAGE}; no such session`],
      [130, 'detached by Ctrl-C, the session left running'],
      [143, 'detached by SIGTERM'],
      [129, 'detached by SIGHUP'],
    ],
    login: [
      [0, 'codex is logged in with the key'],
      [1, 'codex did not log in'],
      [2, `${USAGE}; no API key on stdin`],
      [130, 'cancelled by Ctrl-C while reading the key'],
    ],
    logout: [
      [0, 'codex is logged out'],
      [1, 'codex did not log out'],
      [2, USAGE],
    ],
  };

/** The `Exit codes:` block of one command's help. */
export function exitCodesHelp(command: string): string {
  const rows = COMMAND_EXIT_CODES[command] ?? [];
  return ['Exit codes:', ...rows.map(([code, what]) => `  ${String(code).padEnd(4)} ${what}`)].join(
    '\n',
  );
}

/** The program's own help: the codes every command shares, and where the rest are. */
export const EXIT_CODES_HELP = `Exit codes: each command's --help lists its own
  0    success · 1 failure · 2 usage error · 3 no reviewed codex
  run also 4 (--output-schema mismatch), 124 (--timeout), 141 (stdout closed); run, demo, attach 130 (Ctrl-C), 143, 129 (signals)
  errors are one line, relvo-codex: <what>; <what to do> (--verbose adds schema paths and reasons)`;

/** An error that ends the command with a given exit code and a one-line message. */
export class CliExit extends Error {
  constructor(
    readonly code: ExitCode,
    message: string,
    /** What only `--verbose` shows: schema paths, reason tokens. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'CliExit';
  }
}
