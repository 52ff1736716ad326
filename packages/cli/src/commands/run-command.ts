/**
 * `relvo-codex run`'s options (commander) and how they become `RunOptions`. Kept apart from
 * program.ts: run has the most options, several spelled as `codex exec` spells them.
 */
import { RUN_SUMMARIES } from '@relvo-labs/agent-provider';
import { Option, type Command } from 'commander';
import type { RunOptions } from './run.js';

const SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;

/** What commander hands the action; `color` and `codex` are the common options. */
export interface RunFlags {
  readonly model?: string;
  readonly effort?: string;
  readonly summary?: (typeof RUN_SUMMARIES)[number];
  readonly profile?: string;
  readonly config?: string | false;
  readonly cwd?: string;
  readonly cd?: string;
  readonly sandbox?: (typeof SANDBOX_MODES)[number];
  readonly approvals?: 'bridge' | 'none';
  readonly eventLog?: string;
  readonly eventStore?: string;
  readonly ephemeral?: boolean;
  readonly resume?: string;
  readonly fork?: string;
  readonly json?: boolean;
  readonly timeout?: string;
  readonly outputLastMessage?: string;
  readonly outputSchema?: string;
  readonly codex?: string;
}

export function addRunOptions(cmd: Command): Command {
  return cmd
    .argument('[prompt]', 'what to ask codex; `-` (or none, with a pipe): read it from stdin')
    .option(
      '-m, --model <model>',
      'the model codex uses (default: the profile’s, else codex’s own)',
    )
    .option(
      '--effort <level>',
      'the reasoning effort of each turn, one the model offers (`relvo-codex models`; default: the model’s own)',
    )
    .addOption(
      new Option(
        '--summary <mode>',
        'the reasoning summary codex asks the model for (default: codex’s config, else auto)',
      ).choices(RUN_SUMMARIES),
    )
    .option('--profile <name>', 'host config profile to use')
    .option('--config <file>', 'host config file (default: the built-in profiles)')
    .option('--no-config', 'ignore ./relvo.config.json and use the built-in profiles')
    .option('--cwd <dir>', 'workspace directory (default: the current directory)')
    .addOption(
      new Option('-C, --cd <dir>', 'the same as --cwd (codex exec’s spelling)').conflicts('cwd'),
    )
    .addOption(new Option('--sandbox <mode>', 'codex sandbox mode').choices(SANDBOX_MODES))
    .addOption(
      new Option(
        '--approvals <mode>',
        'bridge: answer approvals here; none: codex never asks',
      ).choices(['bridge', 'none']),
    )
    .option(
      '--event-log <file>',
      'SQLite event log (default: $RELVO_CODEX_EVENT_LOG or ~/.local/state/relvo-codex/events.sqlite)',
    )
    .addOption(
      new Option(
        '--event-store <url>',
        'the event log on a PostgreSQL database several hosts share (postgres://user@host/db; put the password in PGPASSWORD, not the URL)',
      ).conflicts('eventLog'),
    )
    .addOption(
      new Option(
        '--ephemeral',
        'keep no event log at all (config: "host": { "ephemeral": true })',
      ).conflicts(['eventLog', 'eventStore']),
    )
    .addOption(
      new Option(
        '--resume <session>',
        'continue a session a run left open (killed, crashed) on its codex thread; `relvo-codex sessions` lists the resumable ones',
      ).conflicts(['ephemeral', 'profile', 'cwd', 'cd']),
    )
    .addOption(
      new Option(
        '--fork <session>',
        'a new session that continues from where that session of the event log is now, on a fork of its codex thread; the session itself is left as it is',
      ).conflicts(['ephemeral', 'profile', 'cwd', 'cd', 'resume']),
    )
    .option('--json', 'write runtime event envelopes to stdout, one per line')
    .option('-o, --output-last-message <file>', 'also write the final agent message to this file')
    .option(
      '--output-schema <file>',
      'a JSON Schema file the final answer must match: the validated JSON is printed on stdout (exit 4 when it does not match)',
    )
    .option('--timeout <duration>', 'give up after this long, e.g. 90s, 5m (exit 124)');
}

/** The action's flags as `runRun` takes them. */
export function runOptionsOf(prompt: string | undefined, flags: RunFlags): RunOptions {
  return {
    prompt,
    model: flags.model,
    effort: flags.effort,
    summary: flags.summary,
    profile: flags.profile,
    config: flags.config,
    cwd: flags.cd ?? flags.cwd,
    sandbox: flags.sandbox,
    approvals: flags.approvals,
    eventLog: flags.eventLog,
    eventStore: flags.eventStore,
    ephemeral: flags.ephemeral === true,
    json: flags.json === true,
    codex: flags.codex,
    resume: flags.resume,
    fork: flags.fork,
    timeout: flags.timeout,
    outputLastMessage: flags.outputLastMessage,
    outputSchema: flags.outputSchema,
  };
}
