/**
 * `relvo-codex run "<prompt>"`: a real turn with the person's own codex login and model
 * (their CODEX_HOME), through the runtime and a host config file. Approvals and questions are
 * answered in the terminal. The first Ctrl-C interrupts the turn and keeps the session (on a
 * terminal you may then continue the conversation); the second disposes it and exits 130.
 */
import { resolve } from 'node:path';
import { input } from '@inquirer/prompts';
import type { AgentRuntime } from '@relvo-labs/agent-runtime';
import { requireReviewedCodex } from '../codex/gate.js';
import { CliExit, EXIT } from '../exit-codes.js';
import { checkLogin, loginHint, NOT_LOGGED_IN } from '../codex/login.js';
import type { LocatedCodex } from '../codex/locate.js';
import { chooseConfig, type ChosenConfig } from '../host/config.js';
import { codexFactory, openCodexRuntime } from '../host/runtime.js';
import { defaultEventLogPath } from '../paths.js';
import type { CliIo } from '../program.js';
import { createAnswerer } from '../turn/answers.js';
import { ctrlCFor, type CtrlC } from '../turn/ctrl-c.js';
import { SessionDriver, type TurnEnd } from '../turn/driver.js';
import { exitCodeFor, terminalStreams } from '../turn/exit.js';
import { failureAdvice } from '../turn/advice.js';
import { printTurnSummary, timingsOf } from '../turn/summary.js';
import type { Output } from '../ui/output.js';

export interface RunOptions {
  readonly prompt: string;
  readonly profile: string | undefined;
  readonly config: string | undefined;
  readonly cwd: string | undefined;
  readonly sandbox: 'read-only' | 'workspace-write' | 'danger-full-access' | undefined;
  readonly approvals: 'bridge' | 'none' | undefined;
  readonly eventLog: string | undefined;
  readonly json: boolean;
  readonly codex: string | undefined;
}

export async function runRun(options: RunOptions, out: Output, io: CliIo): Promise<number> {
  const startedAt = performance.now();
  if (options.prompt.trim() === '') throw new CliExit(EXIT.usage, 'run: the prompt is empty');
  const cwd = process.cwd();
  const chosen = chooseConfig({
    configFile: options.config,
    profile: options.profile,
    sandbox: options.sandbox,
    approvals: options.approvals,
    cwd,
  });
  const workspace = resolve(cwd, options.cwd ?? '.');
  const codex = await requireReviewedCodex(options.codex, io.env);
  const eventLog =
    options.eventLog === undefined ? defaultEventLogPath(io.env) : resolve(cwd, options.eventLog);
  const terminal = terminalStreams(io);

  const spin = out.json ? undefined : out.spinner(`starting codex ${codex.version}…`);
  let runtime: AgentRuntime | undefined;
  let driver: SessionDriver | undefined;
  let ctrlC: CtrlC | undefined;
  let code: number;
  try {
    runtime = await openCodexRuntime({ codex, eventLog, config: chosen.config });
    await requireLogin(chosen, codex, workspace);
    const session = await runtime.openSession({ workspace, profile: chosen.profile });
    driver = new SessionDriver({
      session,
      out,
      answerer: createAnswerer('ask', terminal),
      onPromptCtrlC: () => ctrlC?.press(),
    });
    const active = driver;
    ctrlC = ctrlCFor(active, (line) => {
      out.warn(line);
    });
    spin?.succeed(
      `codex ${codex.version} (${codex.kind}) · profile ${chosen.profile} (${chosen.source}) · ${workspace}`,
    );
    if (!out.json) out.note(out.c.dim(`event log ${eventLog} · session ${session.id}`));

    let prompt = options.prompt;
    for (;;) {
      const end: TurnEnd = await driver.turn(prompt);
      if (end.kind === 'quit') {
        code = ctrlC.quitCode;
        break;
      }
      if (!out.json) {
        out.text('\n');
        printTurnSummary(out, end.termination, end.stats, timingsOf(end.stats, startedAt));
      }
      const advice = failureAdvice(end.termination, codex.path);
      if (advice !== undefined) out.warn(`what to do: ${advice}`);
      code = exitCodeFor(end.termination);
      if (end.termination.outcome !== 'interrupted' || terminal === undefined) break;
      // interrupted, the session stays: the person may go on, or press Ctrl-C again to quit
      const next = await followUp(terminal, ctrlC);
      if (next === undefined) break;
      if (next === 'quit') {
        active.quit();
        code = EXIT.interrupted;
        break;
      }
      prompt = next.text;
    }
  } finally {
    spin?.stop();
    ctrlC?.dispose();
    if (driver !== undefined) await driver.close().catch(() => undefined);
    if (runtime !== undefined) await runtime.shutdown().catch(() => undefined);
  }
  return code;
}

/**
 * Asks codex whether it is logged in before a turn that would only retry for minutes. Only a
 * clear "no" stops the run: a codex that cannot be asked fails the turn with its own reason.
 */
async function requireLogin(
  chosen: ChosenConfig,
  codex: LocatedCodex,
  workspace: string,
): Promise<void> {
  const profile = chosen.config.profiles[chosen.profile];
  if (profile?.provider !== 'codex') return;
  let provider;
  try {
    provider = codexFactory(codex)(profile.providerOptions);
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
          'turn interrupted; the session is still open. Continue with (Enter to end, Ctrl-C to quit):',
      },
      { input: terminal.input, output: terminal.output, clearPromptOnDone: false },
    );
    return text.trim() === '' ? undefined : { text };
  } catch {
    ctrlC?.press();
    return 'quit';
  }
}
