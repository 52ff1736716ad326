/**
 * The `relvo-codex` command line: argument parsing (commander), exit codes, and dispatch to
 * one module per subcommand.
 */
import { Command, CommanderError, Option } from 'commander';
import { CliExit, EXIT, EXIT_CODES_HELP, exitCodesHelp } from './exit-codes.js';
import { CODEX_EXECUTABLE_ENV } from './codex/locate.js';
import { runDoctorChecks } from './commands/doctor.js';
import { doctorExitCode, printDoctorReport } from './commands/doctor-report.js';
import { registerAttachCommand } from './commands/attach.js';
import { registerHistoryCommands } from './commands/history.js';
import { addRunOptions, runOptionsOf, type RunFlags } from './commands/run-command.js';
import { neutraliseLine } from './ui/neutralise.js';
import { COLOR_MODES, createOutput, type ColorMode, type Output } from './ui/output.js';
import { PROGRAM_EXAMPLES, RUN_EXAMPLES, SERVE_EXAMPLES, VERSION_TEXT } from './help.js';
import type { CliIo } from './cli-io.js';

export type { CliIo } from './cli-io.js';

interface CommonOptions {
  readonly codex?: string;
  /** `--color WHEN`; false with `--no-color`; undefined: auto. */
  readonly color?: boolean | ColorMode;
}

function outputFor(io: CliIo, opts: CommonOptions & { json?: boolean }): Output {
  return createOutput({
    json: opts.json === true,
    color: opts.color,
    env: io.env,
    stdout: io.stdout,
    stderr: io.stderr,
  });
}

export function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const program = new Command('relvo-codex')
    .description(
      'Run a real Codex turn through the Relvo agent runtime.\n' +
        'Which codex: --codex <path>, else $' +
        CODEX_EXECUTABLE_ENV +
        ', else the @openai/codex this package pins.',
    )
    .version(VERSION_TEXT)
    .addHelpText('after', `\n${PROGRAM_EXAMPLES}\n\n${EXIT_CODES_HELP}`)
    .option('--verbose', 'errors also show schema paths and reason tokens')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // main() writes parse errors as one `relvo-codex:` line
      outputError: () => undefined,
    });

  const common = (cmd: Command): Command =>
    cmd
      .option(
        '--codex <path>',
        `codex executable to use (default: $${CODEX_EXECUTABLE_ENV}, else the pinned one)`,
      )
      .addOption(
        new Option(
          '--color <when>',
          'colour: auto (on a terminal, unless NO_COLOR is set), always (a pipe too), never',
        ).choices(COLOR_MODES),
      )
      .option('--no-color', 'the same as --color never: no colour and no spinner')
      .addHelpText('after', `\n${exitCodesHelp(cmd.name())}`);

  common(
    program
      .command('demo')
      .description(
        'one real codex turn against a scripted model on 127.0.0.1: no credentials, no network',
      )
      .option('--json', 'write runtime event envelopes to stdout, one per line')
      .addOption(new Option('--yes', 'approve the command without asking').conflicts('no'))
      .addOption(new Option('--no', 'deny the command without asking').conflicts('yes'))
      .option('--keep', 'keep the workspace and the event log, and print where they are'),
  ).action(
    async (
      opts: CommonOptions & { json?: boolean; yes?: boolean; no?: boolean; keep?: boolean },
    ) => {
      const { runDemo } = await import('./commands/demo.js');
      const out = outputFor(io, opts);
      setExit(
        await runDemo(
          {
            json: opts.json === true,
            answer: opts.yes === true ? 'approve' : opts.no === true ? 'deny' : 'ask',
            keep: opts.keep === true,
            codex: opts.codex,
          },
          out,
          io,
        ),
      );
    },
  );

  common(
    addRunOptions(
      program
        .command('run')
        .description('a real codex turn with your own codex login and model, through the runtime'),
    ).addHelpText('after', `\n${RUN_EXAMPLES}`),
  ).action(async (prompt: string | undefined, opts: CommonOptions & RunFlags) => {
    const { runRun } = await import('./commands/run.js');
    setExit(await runRun(runOptionsOf(prompt, opts), outputFor(io, opts), io));
  });

  common(
    program
      .command('doctor')
      .description(
        'which codex, is it in the reviewed window, handshake time, resource usage, login, rate limits, event log',
      )
      .option('--json', 'print one JSON object on stdout'),
  ).action(async (opts: CommonOptions & { json?: boolean }) => {
    const out = outputFor(io, opts);
    const spin = out.json ? undefined : out.spinner('checking codex…');
    const report = await runDoctorChecks({ codex: opts.codex, env: io.env });
    spin?.stop();
    if (out.json) out.jsonLine(report);
    else printDoctorReport(report, out);
    setExit(doctorExitCode(report));
  });

  common(
    program
      .command('serve')
      .description('a web console on 127.0.0.1: sessions, an approvals inbox, live timelines')
      .option('--host <address>', 'address to listen on (default: 127.0.0.1)')
      .option('--port <number>', 'port to listen on (default: a free one)')
      .option('--profile <name>', 'host config profile for sessions opened from the page')
      .option('--config <file>', 'host config file (default: the built-in profiles)')
      .option('--no-config', 'ignore ./relvo.config.json and use the built-in profiles')
      .option('--cwd <dir>', 'workspace of sessions opened from the page (default: here)')
      .option('--event-log <file>', 'SQLite event log (default: as for run)')
      .addOption(
        new Option(
          '--event-store <url>',
          'the event log on a shared PostgreSQL database, as for run (put the password in PGPASSWORD, not the URL)',
        ).conflicts('eventLog'),
      )
      .addOption(
        new Option('--ephemeral', 'keep no event log at all').conflicts(['eventLog', 'eventStore']),
      )
      .addHelpText('after', `\n${SERVE_EXAMPLES}`),
  ).action(
    async (
      opts: CommonOptions & {
        host?: string;
        port?: string;
        profile?: string;
        config?: string | false;
        cwd?: string;
        eventLog?: string;
        eventStore?: string;
        ephemeral?: boolean;
      },
    ) => {
      const { runServe } = await import('./commands/serve.js');
      setExit(
        await runServe(
          {
            host: opts.host,
            port: opts.port,
            profile: opts.profile,
            config: opts.config,
            cwd: opts.cwd,
            eventLog: opts.eventLog,
            eventStore: opts.eventStore,
            ephemeral: opts.ephemeral === true,
            codex: opts.codex,
          },
          outputFor(io, opts),
          io,
        ),
      );
    },
  );

  common(
    program
      .command('models')
      .description('the models your codex offers (its own catalog; nothing is sent to a model)')
      .option('--all', 'include the models codex hides from its own picker')
      .option('--json', 'print one JSON object on stdout'),
  ).action(async (opts: CommonOptions & { all?: boolean; json?: boolean }) => {
    const { runModels } = await import('./commands/models.js');
    const out = outputFor(io, opts);
    setExit(
      await runModels(
        { codex: opts.codex, all: opts.all === true, json: opts.json === true },
        out,
        io.env,
      ),
    );
  });

  common(
    program
      .command('login')
      .description(
        'log your codex in with an API key read from stdin (never from the command line)',
      ),
  ).action(async (opts: CommonOptions) => {
    const { runLogin } = await import('./commands/login.js');
    setExit(
      await runLogin({ codex: opts.codex }, outputFor(io, opts), io.env, io.stdin, io.stderr),
    );
  });

  common(program.command('logout').description("remove your codex's stored login")).action(
    async (opts: CommonOptions) => {
      const { runLogout } = await import('./commands/login.js');
      setExit(await runLogout({ codex: opts.codex }, outputFor(io, opts), io.env));
    },
  );

  registerHistoryCommands(program, io.env, (opts) => outputFor(io, opts), setExit);
  registerAttachCommand(program, io, (opts) => outputFor(io, opts), setExit);
  for (const name of ['sessions', 'log', 'attach'])
    program.commands
      .find((c) => c.name() === name)
      ?.addHelpText('after', `\n${exitCodesHelp(name)}`);

  return program;
}

/** The arguments before `--`: a prompt after it is never read as an option. */
function optionArgs(argv: readonly string[]): readonly string[] {
  const args = argv.slice(2);
  const end = args.indexOf('--');
  return end === -1 ? args : args.slice(0, end);
}

/** Commander's parse error (`error: unknown option …\n(Did you mean …?)`) as one line. */
function usageLine(error: CommanderError, args: readonly string[], program: Command): string {
  const [what = '', ...rest] = error.message.replace(/^error: /, '').split('\n');
  const hint = /^\(Did you mean (.+)\?\)$/.exec(rest.join(' ').trim())?.[1];
  const command = program.commands.find((c) => args.includes(c.name()))?.name();
  const help = `relvo-codex${command === undefined ? '' : ` ${command}`} --help`;
  return `${what.replace(/\.$/, '')}; ${hint === undefined ? `${help} shows the usage` : `did you mean ${hint}? (${help} shows the usage)`}`;
}

/** Pairs of options that contradict each other, refused before anything runs. */
function contradiction(args: readonly string[]): string | undefined {
  const has = (name: string): boolean => args.some((a) => a === name || a.startsWith(`${name}=`));
  if (has('--config') && has('--no-config'))
    return '--config and --no-config contradict each other; give one of them';
  return undefined;
}

/** Parse and run; resolves with the exit code, never throws. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let code: number = EXIT.ok;
  const program = buildProgram(io, (c) => {
    code = c;
  });
  const args = optionArgs(argv);
  const verbose = args.includes('--verbose');
  try {
    const refused = contradiction(args);
    if (refused !== undefined) throw new CliExit(EXIT.usage, refused);
    await program.parseAsync([...argv]);
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here with exit code 0
      if (error.exitCode === 0) return EXIT.ok;
      io.stderr.write(`relvo-codex: ${neutraliseLine(usageLine(error, args, program))}\n`);
      return EXIT.usage;
    }
    if (error instanceof CliExit) {
      // messages may quote paths and provider text: shown, never obeyed
      io.stderr.write(`relvo-codex: ${neutraliseLine(error.message)}\n`);
      if (verbose && error.detail !== undefined)
        io.stderr.write(`relvo-codex: (details) ${neutraliseLine(error.detail)}\n`);
      return error.code;
    }
    io.stderr.write(
      `relvo-codex: unexpected error: ${neutraliseLine(error instanceof Error ? error.message : String(error))}\n`,
    );
    return EXIT.failed;
  }
}
