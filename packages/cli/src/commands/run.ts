/**
 * `relvo-codex run "<prompt>"`: a real turn with the person's own codex login and model
 * (their CODEX_HOME), through the runtime and a host config file. Approvals and questions are
 * answered in the terminal. The first Ctrl-C interrupts the turn and keeps the session (on a
 * terminal you may then continue the conversation); the second disposes it and exits 130.
 */
import { input } from '@inquirer/prompts';
import type { AgentRuntime, EventEnvelope } from '@relvo-labs/agent-runtime';
import { requireReviewedCodex } from '../codex/gate.js';
import { CliExit, EXIT } from '../exit-codes.js';
import { chooseConfig } from '../host/config.js';
import { postgresLog } from '../host/event-store.js';
import { openRunSession } from '../host/open-run.js';
import { placeSessions } from '../host/placement.js';
import { followUpOrUndo } from '../turn/undo.js';
import { checkEventLogPath } from '../host/startup-checks.js';
import type { CliIo } from '../cli-io.js';
import { createAnswerer } from '../turn/answers.js';
import { ctrlCFor, StartupAborted, type CtrlC } from '../turn/ctrl-c.js';
import { SessionDriver, type TurnEnd } from '../turn/driver.js';
import { SteerInput } from '../turn/steer-input.js';
import { printRunHeader } from '../turn/header.js';
import { checkEffort } from '../turn/preflight.js';
import { runOutputsFor } from '../turn/run-outputs.js';
import { StartupProgress } from '../turn/progress.js';
import { resolvePrompt } from '../turn/prompt-input.js';
import { parseDuration, startRunTimeout } from '../turn/run-timeout.js';
import { exitCodeFor, terminalStreams } from '../turn/exit.js';
import { failureAdvice } from '../turn/advice.js';
import { printTurnSummary, timingsOf } from '../turn/summary.js';
import { neutraliseLine } from '../ui/neutralise.js';
import type { Output } from '../ui/output.js';

export interface RunOptions {
  /** undefined or `-`: read it from stdin. */
  readonly prompt: string | undefined;
  readonly model: string | undefined;
  /** `--effort`: the reasoning effort of every turn. */
  readonly effort?: string | undefined;
  /** `--summary`: the reasoning summary of every turn. */
  readonly summary?: 'auto' | 'concise' | 'detailed' | 'none' | undefined;
  readonly profile: string | undefined;
  /** `--config FILE`; false for `--no-config`. */
  readonly config: string | false | undefined;
  readonly cwd: string | undefined;
  readonly sandbox: 'read-only' | 'workspace-write' | 'danger-full-access' | undefined;
  readonly approvals: 'bridge' | 'none' | undefined;
  readonly eventLog: string | undefined;
  /** `--event-store postgres://…`: the log on a shared PostgreSQL database instead. */
  readonly eventStore?: string | undefined;
  /** Keep no event log at all. */
  readonly ephemeral: boolean;
  readonly json: boolean;
  readonly codex: string | undefined;
  /** `--resume <session>`: continue that session of the event log instead of opening one. */
  readonly resume?: string | undefined;
  /** `--fork <session>`: a new session continuing from that one of the event log. */
  readonly fork?: string | undefined;
  /** `--timeout DURATION`: a bound on the whole run (exit 124). */
  readonly timeout?: string | undefined;
  /** `-o FILE`: the final agent message is written there too. */
  readonly outputLastMessage?: string | undefined;
  /** `--output-schema FILE`: a JSON Schema the final answer must match. */
  readonly outputSchema?: string | undefined;
}

export async function runRun(options: RunOptions, out: Output, io: CliIo): Promise<number> {
  const startedAt = performance.now();
  if (options.timeout !== undefined) parseDuration(options.timeout); // exit 2 before anything
  const source = await resolvePrompt(options.prompt, io.stdin, (l) => {
    out.note(l);
  });
  const firstPrompt = source.prompt;
  if (source.appendedBytes > 0 && !out.json)
    out.note(
      out.c.dim(`stdin (${source.appendedBytes} bytes) follows the prompt as a <stdin> block`),
    );
  if (firstPrompt.trim() === '') throw new CliExit(EXIT.usage, 'run: the prompt is empty');
  const cwd = process.cwd();
  const { outputSchema, outputs } = runOutputsFor(options, cwd);
  // with --output-schema stdout carries the validated JSON only, not the streamed text
  const textOut = outputSchema === undefined ? out : withoutText(out);
  const chosen = chooseConfig({
    configFile: options.config,
    profile: options.profile,
    sandbox: options.sandbox,
    approvals: options.approvals,
    model: options.model,
    effort: options.effort,
    summary: options.summary,
    outputSchema,
    cwd,
  });
  const placed = placeSessions(options, chosen, cwd, io.env);
  const { workspace, ephemeral } = placed;
  const shared = options.eventStore === undefined ? undefined : postgresLog(options.eventStore);
  // what messages name: the file, or the URL with its password hidden
  const eventLog = shared?.label ?? placed.eventLog;
  const from =
    options.resume !== undefined ? '--resume' : options.fork !== undefined ? '--fork' : '';
  if (from !== '' && ephemeral) {
    throw new CliExit(
      EXIT.usage,
      `run ${from} continues a session of the event log; the config keeps none ("host": { "ephemeral": true }): name one with --event-log`,
    );
  }
  if (!ephemeral && shared === undefined) checkEventLogPath(eventLog);
  const codex = await requireReviewedCodex(options.codex, io.env);
  // a level the model does not offer is refused before anything is shown or opened
  await checkEffort(chosen, codex, workspace);
  const terminal = terminalStreams(io);

  const profile = chosen.config.profiles[chosen.profile];
  // a resumed or forked session's workspace and profile are its own, said once it is opened
  const pending =
    out.json || profile === undefined || from !== ''
      ? undefined
      : printRunHeader(
          out,
          { name: chosen.profile, source: chosen.source, value: profile },
          workspace,
        );
  const onEnvelope = (e: EventEnvelope): void => {
    outputs.onEnvelope(e);
    // nothing named the model: the header's codex line names the one codex reported
    if (pending?.(e.payload, () => progress?.clearStatus()) === true) return;
    progress?.onEnvelope(e);
  };
  // started once everything else is printed: nothing may write while it spins
  let progress: StartupProgress | undefined;
  // before anything is opened: from here on every signal ends through the clean-up below
  const ctrlC = ctrlCFor((line) => {
    progress?.clearStatus();
    out.warn(line);
  });
  const timeout = startRunTimeout(
    options.timeout,
    {
      stop: ctrlC.stopTurn,
      quit: () => {
        ctrlC.giveUp();
      },
    },
    (line) => {
      progress?.clearStatus();
      out.warn(line);
    },
  );
  let runtime: AgentRuntime | undefined;
  let driver: SessionDriver | undefined;
  let code: number;
  try {
    const opened = await openRunSession(
      {
        codex,
        chosen,
        workspace,
        ephemeral,
        shared,
        eventLog,
        namedEventLog: options.eventLog,
        resume: options.resume,
        fork: options.fork,
        env: io.env,
      },
      ctrlC,
      (r) => {
        runtime = r;
      },
    );
    const { session, fromSequence } = opened;
    driver = new SessionDriver({
      session,
      fromSequence,
      out: textOut,
      answerer: createAnswerer('ask', terminal),
      onPromptCtrlC: () => {
        ctrlC.press();
      },
      onEnvelope,
      noTerminalHint: 'run it in a terminal to answer approvals',
    });
    const active = driver;
    ctrlC.checkpoint();
    ctrlC.attach(active);
    // `| head` has what it wanted: the turn is interrupted (and recorded so), the session closed
    out.onStdoutClosed(() => {
      void active.interrupt();
    });
    if (!out.json) {
      const where = ephemeral ? 'none (ephemeral)' : neutraliseLine(eventLog);
      const how =
        opened.forkedFrom !== undefined
          ? ` (forked from ${opened.forkedFrom})`
          : options.resume === undefined
            ? ''
            : ' (resumed)';
      out.note(out.c.dim(`event log ${where} · session ${session.id}${how}`));
      progress = new StartupProgress(
        out,
        io.stdout.isTTY,
        `codex ${codex.version} (${codex.kind})`,
      );
    }

    // on a terminal, a line typed while the run streams steers it
    const steering =
      terminal === undefined
        ? undefined
        : new SteerInput({ input: terminal.input, session, out, asking: () => active.asking });
    let prompt = firstPrompt;
    // a call, not a property: the reader may go away while a turn is awaited
    const stdoutGone = (): boolean => out.stdoutClosed;
    for (;;) {
      if (stdoutGone()) {
        code = EXIT.stdoutClosed; // before the turn: nobody reads its answer
        break;
      }
      steering?.start();
      const end: TurnEnd = await driver.turn(prompt).finally(() => {
        steering?.stop();
      });
      if (stdoutGone()) {
        code = EXIT.stdoutClosed;
        break;
      }
      if (end.kind === 'quit') {
        code = timeout?.expired === true ? EXIT.timedOut : ctrlC.quitCode;
        break;
      }
      if (!out.json) {
        textOut.text('\n');
        printTurnSummary(out, end.termination, end.stats, timingsOf(end.stats, startedAt));
      }
      const advice = failureAdvice(end.termination, codex.path);
      if (advice !== undefined) out.warn(`what to do: ${advice}`);
      code = outputs.finish(end.termination, out) ?? exitCodeFor(end.termination);
      if (timeout?.expired === true) {
        code = EXIT.timedOut; // no follow-up: the run's time is up
        break;
      }
      if (end.termination.outcome !== 'interrupted' || terminal === undefined) break;
      // interrupted, the session stays: the person may go on, or press Ctrl-C again to quit
      const next = await followUpOrUndo(() => followUp(terminal, ctrlC), session, out);
      if (next === undefined) break;
      if (next === 'quit') {
        active.quit();
        code = EXIT.interrupted;
        break;
      }
      prompt = next.text;
      ctrlC.rearm(); // the follow-up turn's first Ctrl-C interrupts it, as the first turn's did
    }
  } catch (error) {
    if (!(error instanceof StartupAborted)) throw error;
    code = timeout?.expired === true ? EXIT.timedOut : ctrlC.quitCode;
  } finally {
    timeout?.dispose();
    progress?.stop();
    // as before: a further signal during the clean-up ends the process at once
    ctrlC.dispose();
    if (driver !== undefined) await driver.close().catch(() => undefined);
    if (runtime !== undefined) await runtime.shutdown().catch(() => undefined);
  }
  return code;
}

/** The same output with the model's streamed text left out (the driver writes it there). */
function withoutText(out: Output): Output {
  const quiet = Object.create(out) as Output;
  return Object.assign(quiet, { text: () => undefined });
}

/** Asks for a follow-up in the same session; Enter alone ends, Ctrl-C quits. */
async function followUp(
  terminal: NonNullable<ReturnType<typeof terminalStreams>>,
  ctrlC: CtrlC | undefined,
): Promise<{ readonly text: string } | 'quit' | undefined> {
  try {
    const text = await input(
      {
        message:
          'turn interrupted; the session is still open. Continue with (/undo takes it back, Enter to end, Ctrl-C to quit):',
      },
      { input: terminal.input, output: terminal.output, clearPromptOnDone: false },
    );
    return text.trim() === '' ? undefined : { text };
  } catch {
    ctrlC?.press();
    return 'quit';
  }
}
