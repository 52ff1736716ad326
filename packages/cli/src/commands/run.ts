/**
 * `relvo-codex run "<prompt>"`: a real turn with the person's own codex login and model
 * (their CODEX_HOME), through the runtime and a host config file. Approvals and questions are
 * answered in the terminal. The first Ctrl-C interrupts the turn and keeps the session (on a
 * terminal you may then continue the conversation); the second disposes it and exits 130.
 */
import { input } from '@inquirer/prompts';
import type { AgentRuntime } from '@relvo-labs/agent-runtime';
import { requireReviewedCodex } from '../codex/gate.js';
import { CliExit, EXIT } from '../exit-codes.js';
import { checkLogin, loginHint, NOT_LOGGED_IN } from '../codex/login.js';
import type { LocatedCodex } from '../codex/locate.js';
import { chooseConfig, type ChosenConfig } from '../host/config.js';
import { postgresLog } from '../host/event-store.js';
import { placeSessions } from '../host/placement.js';
import { codexFactory, openCodexRuntime } from '../host/runtime.js';
import { resumeFromLog, withThreadPersistence } from '../host/resume.js';
import { followUpOrUndo } from '../turn/undo.js';
import { checkEventLogPath, startupErrorToExit } from '../host/startup-checks.js';
import { EVENT_LOG_ENV } from '../paths.js';
import type { CliIo } from '../program.js';
import { createAnswerer } from '../turn/answers.js';
import { ctrlCFor, StartupAborted, type CtrlC } from '../turn/ctrl-c.js';
import { SessionDriver, type TurnEnd } from '../turn/driver.js';
import { SteerInput } from '../turn/steer-input.js';
import { printRunHeader } from '../turn/header.js';
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
  /** `--timeout DURATION`: a bound on the whole run (exit 124). */
  readonly timeout?: string | undefined;
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
  const chosen = chooseConfig({
    configFile: options.config,
    profile: options.profile,
    sandbox: options.sandbox,
    approvals: options.approvals,
    model: options.model,
    effort: options.effort,
    cwd,
  });
  const placed = placeSessions(options, chosen, cwd, io.env);
  const { workspace, ephemeral } = placed;
  const shared = options.eventStore === undefined ? undefined : postgresLog(options.eventStore);
  // what messages name: the file, or the URL with its password hidden
  const eventLog = shared?.label ?? placed.eventLog;
  if (options.resume !== undefined && ephemeral) {
    throw new CliExit(
      EXIT.usage,
      'run --resume continues a session of the event log; the config keeps none ("host": { "ephemeral": true }): name one with --event-log',
    );
  }
  if (!ephemeral && shared === undefined) checkEventLogPath(eventLog);
  const codex = await requireReviewedCodex(options.codex, io.env);
  const terminal = terminalStreams(io);

  const profile = chosen.config.profiles[chosen.profile];
  // a resumed session's workspace and profile are its own, said once it is resumed
  if (!out.json && profile !== undefined && options.resume === undefined) {
    printRunHeader(out, { name: chosen.profile, source: chosen.source, value: profile }, workspace);
  }
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
    const { session, fromSequence } = await (async () => {
      try {
        runtime = await openCodexRuntime({
          codex,
          env: io.env,
          eventLog: ephemeral
            ? { memory: true }
            : shared === undefined
              ? eventLog
              : { postgres: shared },
          // the default folder is relvo-codex's own; a folder the person named is left as it is
          eventLogOptions: { ownsFolder: options.eventLog === undefined && !io.env[EVENT_LOG_ENV] },
          config: ephemeral ? chosen.config : withThreadPersistence(chosen.config),
        });
        ctrlC.checkpoint();
        // the login check starts a codex of its own: a signal must not wait for its answer
        await ctrlC.unlessAbandoned(requireLogin(chosen, codex, workspace));
        ctrlC.checkpoint();
        if (options.resume !== undefined)
          return await resumeFromLog(runtime, options.resume, eventLog);
        return {
          // the config it ran with, so that a resume without it can say which file it needs
          session: await runtime.openSession({
            workspace,
            profile: chosen.profile,
            metadata: { config: chosen.source },
          }),
          fromSequence: 1,
        };
      } catch (error) {
        throw error instanceof StartupAborted ? error : startupErrorToExit(error, eventLog);
      }
    })();
    driver = new SessionDriver({
      session,
      fromSequence,
      out,
      answerer: createAnswerer('ask', terminal),
      onPromptCtrlC: () => {
        ctrlC.press();
      },
      onEnvelope: (e) => progress?.onEnvelope(e),
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
      const resumed = options.resume === undefined ? '' : ' (resumed)';
      out.note(out.c.dim(`event log ${where} · session ${session.id}${resumed}`));
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
        out.text('\n');
        printTurnSummary(out, end.termination, end.stats, timingsOf(end.stats, startedAt));
      }
      const advice = failureAdvice(end.termination, codex.path);
      if (advice !== undefined) out.warn(`what to do: ${advice}`);
      code = exitCodeFor(end.termination);
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

/**
 * Asks codex whether it is logged in before a turn that would only retry for minutes. Only a
 * clear "no" stops the run: a codex that cannot be asked fails the turn with its own reason.
 */
/** How long the login check may wait for codex to answer. */
const LOGIN_CHECK_TIMEOUT_MS = 15_000;

async function requireLogin(
  chosen: ChosenConfig,
  codex: LocatedCodex,
  workspace: string,
): Promise<void> {
  const profile = chosen.config.profiles[chosen.profile];
  if (profile?.provider !== 'codex') return;
  let provider;
  try {
    // bounded: a codex that never answers must not hold the run before its turn even starts
    provider = codexFactory(codex)({
      ...profile.providerOptions,
      requestTimeoutMs: LOGIN_CHECK_TIMEOUT_MS,
    });
  } catch {
    return; // refused options: the runtime says which, at the turn
  }
  const check = await checkLogin(provider, workspace);
  if (check.checked && !check.loggedIn) {
    throw new CliExit(EXIT.failed, `${NOT_LOGGED_IN}: ${loginHint(codex.path)}`);
  }
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
