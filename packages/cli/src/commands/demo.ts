/**
 * `relvo-codex demo`: the embedded default. The real codex this package pins, the provider's
 * scripted model on 127.0.0.1, a throw-away CODEX_HOME and workspace, a SQLite event log, and
 * one turn through the runtime with approvals bridged to the terminal. No credentials, no
 * network. Everything is removed afterwards unless `--keep`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentRuntime } from '@relvo-labs/agent-runtime';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  ScriptedModelServer,
} from '@relvo-labs/agent-provider-codex/demo-model';
import { requireReviewedCodex } from '../codex/gate.js';
import { closingStep, DEMO_COMMAND, DEMO_FILE, DEMO_PROMPT, openingStep } from '../demo/script.js';
import { openCodexRuntime } from '../host/runtime.js';
import type { CliIo } from '../cli-io.js';
import { createAnswerer, type AnswerPolicy } from '../turn/answers.js';
import { ctrlCFor, StartupAborted } from '../turn/ctrl-c.js';
import { SessionDriver } from '../turn/driver.js';
import { StartupProgress } from '../turn/progress.js';
import { exitCodeFor, terminalStreams } from '../turn/exit.js';
import { printTurnSummary, timingsOf } from '../turn/summary.js';
import { neutraliseLine } from '../ui/neutralise.js';
import type { Output } from '../ui/output.js';

export interface DemoOptions {
  readonly json: boolean;
  readonly answer: AnswerPolicy;
  readonly keep: boolean;
  readonly codex: string | undefined;
}

export const DEMO_PROFILE = 'demo';

export async function runDemo(options: DemoOptions, out: Output, io: CliIo): Promise<number> {
  const startedAt = performance.now();
  const codex = await requireReviewedCodex(options.codex, io.env);
  const terminal = terminalStreams(io);
  if (options.answer === 'ask' && terminal === undefined) {
    out.warn('no terminal to ask in and neither --yes nor --no: the command will be denied');
  }

  // started once everything else is printed: nothing may write while it spins
  let progress: StartupProgress | undefined;
  // before the temp folder exists: from here on every signal ends through the clean-up below
  const ctrlC = ctrlCFor((line) => {
    progress?.clearStatus();
    out.warn(line);
  });
  const iso = createIsolatedCodexHome('relvo-demo-');
  const eventLog = join(iso.root, 'events.sqlite');
  let server: ScriptedModelServer | undefined;
  let runtime: AgentRuntime | undefined;
  let driver: SessionDriver | undefined;
  let code: number;
  try {
    server = await ScriptedModelServer.start();
    ctrlC.checkpoint();
    server.enqueue(openingStep());
    // on screen before codex starts: the spinner then covers the wait for the app-server
    if (!out.json) {
      out.note(out.c.dim(`scripted model on ${server.baseUrl}`));
      out.note(out.c.dim(`workspace ${iso.workspace}`));
      out.note(`${out.c.bold('you')}: ${DEMO_PROMPT}`);
      progress = new StartupProgress(
        out,
        io.stdout.isTTY,
        `codex ${codex.version} (${codex.kind})`,
        () => {
          out.note(out.c.bold('codex:'));
        },
      );
    }
    runtime = await openCodexRuntime({
      codex,
      env: io.env,
      eventLog,
      config: {
        defaultProfile: DEMO_PROFILE,
        profiles: {
          [DEMO_PROFILE]: {
            provider: 'codex',
            description: 'the real codex against the scripted model on 127.0.0.1',
            providerOptions: {
              executable: codex.path,
              extraArgs: codexConfigArgs({ baseUrl: server.baseUrl }),
              env: iso.env(io.env),
              sandboxMode: 'read-only',
              approvals: 'bridge',
              toolActivity: 'redacted',
            },
          },
        },
      },
    });
    ctrlC.checkpoint();
    const session = await runtime.openSession({ workspace: iso.workspace });
    ctrlC.checkpoint();
    const model = server;
    driver = new SessionDriver({
      session,
      out,
      answerer: createAnswerer(options.answer, terminal),
      // the scripted model's closing reply says what the person decided
      beforeRespond: (answer) => {
        const r = answer.response;
        model.enqueue(closingStep(r?.kind === 'approval' && r.decision === 'approved'));
      },
      onPromptCtrlC: () => {
        ctrlC.press();
      },
      onEnvelope: (e) => progress?.onEnvelope(e),
      noTerminalHint: 'use --yes to approve',
    });
    ctrlC.attach(driver);

    const end = await driver.turn(DEMO_PROMPT);
    if (end.kind === 'quit') {
      code = ctrlC.quitCode;
    } else {
      const ran = existsSync(join(iso.workspace, DEMO_FILE));
      if (!out.json) {
        out.text('\n');
        out.note('');
        out.note(
          ran
            ? `${out.c.green('✓')} the command ran: ${DEMO_FILE} now holds "${neutraliseLine(readFileSync(join(iso.workspace, DEMO_FILE), 'utf8').trim())}"`
            : `${out.c.yellow('✗')} the command did not run (${DEMO_COMMAND})`,
        );
        printTurnSummary(out, end.termination, end.stats, timingsOf(end.stats, startedAt));
      }
      code = exitCodeFor(end.termination);
    }
  } catch (error) {
    if (!(error instanceof StartupAborted)) throw error;
    code = ctrlC.quitCode;
  } finally {
    progress?.stop();
    if (driver !== undefined) await driver.close().catch(() => undefined);
    if (runtime !== undefined) await runtime.shutdown().catch(() => undefined);
    if (server !== undefined) await server.close();
    if (options.keep) {
      out.note(`kept: workspace ${iso.workspace}`);
      out.note(`kept: event log ${eventLog}`);
      out.note(`kept: CODEX_HOME ${iso.codexHome}`);
    } else {
      iso.dispose();
    }
    // last: a second signal during the clean-up must not end the process before it is done
    ctrlC.dispose();
  }
  return code;
}
