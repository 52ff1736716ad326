/**
 * Runs one scenario against the real binary and returns the sanitized transcript plus the
 * timings worth keeping. Used by scripts/protocol-record.ts and test/protocol. Owns the
 * scenario's processes (start, resume, fork) and their teardown; one turn is `record-turn.ts`.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  codexConfigArgs,
  createIsolatedCodexHome,
  ScriptedModelServer,
  type ScriptedStep,
  type TranscriptLine,
} from '../../src/testing/index.js';
import { sanitizeFrame } from './transcript-writer.js';
import { AppServerDriver } from './app-server-driver.js';
import { isMethod, round, runTurn, turnIdFrom, type TurnTimings } from './record-turn.js';
import type { Scenario, TurnPlan } from './scenario-types.js';

export const CLIENT_INFO = {
  name: 'relvo_agent_runtime',
  title: 'Relvo Agent Runtime',
  version: '0.1.0',
} as const;

export interface ScenarioTimings {
  readonly initReply: number;
  readonly threadStartReply: number;
  readonly threadStarted: number;
  readonly turns: readonly TurnTimings[];
  readonly stdinClosed: number;
  readonly exit: number;
}

export interface ScenarioRecording {
  readonly scenario: string;
  readonly lines: TranscriptLine[];
  readonly timings: ScenarioTimings;
  readonly modelRequests: number;
  readonly exitCode: number | null;
  readonly malformedLines: number;
}

export interface RecordOptions {
  readonly binary: string;
  /** Base environment before credential/proxy stripping (tests pass `testEnv()`). */
  readonly baseEnv?: NodeJS.ProcessEnv;
  readonly envExtra?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

const REPO = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

/** A function call's arguments may name `<workspace>` (absolute paths a tool needs). */
function inWorkspace(step: ScriptedStep, workspace: string): ScriptedStep {
  if (step.kind !== 'functionCall') return step;
  const args = typeof step.arguments === 'string' ? step.arguments : JSON.stringify(step.arguments);
  const placed = args.split('<workspace>').join(workspace);
  return placed === args ? step : { ...step, arguments: placed };
}

/** Drive `scenario` once; always tears down the process, the model server and the temp dirs. */
export async function recordScenario(
  scenario: Scenario,
  options: RecordOptions,
): Promise<ScenarioRecording> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const iso = createIsolatedCodexHome('relvo-rec-');
  for (const [path, content] of Object.entries(scenario.workspaceFiles ?? {})) {
    mkdirSync(dirname(join(iso.workspace, path)), { recursive: true });
    writeFileSync(join(iso.workspace, path), content);
  }
  const server = await ScriptedModelServer.start();
  server.enqueue(...scenario.steps.map((step) => inWorkspace(step, iso.workspace)));
  const env = iso.env(options.baseEnv ?? process.env, { TERM: 'dumb', ...options.envExtra });
  // A fixed terminal keeps the userAgent identical from host to host.
  delete env.TERM_PROGRAM;
  delete env.TERM_PROGRAM_VERSION;
  const spawnDriver = (): AppServerDriver =>
    new AppServerDriver({
      binary: options.binary,
      args: [
        ...codexConfigArgs({
          baseUrl: server.baseUrl,
          // `<repo>` keeps the checkout's path out of the recorded index
          extra: (scenario.extraConfig ?? []).map((pair) => pair.split('<repo>').join(REPO)),
        }),
        'app-server',
      ],
      cwd: iso.workspace,
      env,
    });
  let currentTurn: TurnPlan | undefined;
  const answerRequests = (d: AppServerDriver): void => {
    d.onFrame((f) => {
      if (f.dir !== 's2c' || typeof f.frame.method !== 'string' || !('id' in f.frame)) return;
      const answer = currentTurn?.answer?.(f.frame) ?? {
        error: { code: -32601, message: 'method not supported by this client' },
      };
      d.send({ id: f.frame.id, ...answer });
    });
  };
  /** A second app-server on the same CODEX_HOME, initialized (resume, fork). */
  const secondProcess = async (): Promise<AppServerDriver> => {
    const second = spawnDriver();
    answerRequests(second);
    try {
      const again = await second.request(
        'initialize',
        { clientInfo: CLIENT_INFO, capabilities: null },
        timeoutMs,
      );
      if (!('result' in again)) throw new Error('initialize failed');
    } catch (error) {
      // not yet the recorded driver: nothing else would close it
      await second.close();
      throw error;
    }
    second.notify('initialized');
    return second;
  };
  let driver = spawnDriver();
  answerRequests(driver);
  const setUp: AppServerDriver[] = [];
  try {
    await scenario.beforeInitialize?.(driver);
    const init = await driver.request(
      'initialize',
      {
        clientInfo: CLIENT_INFO,
        capabilities: scenario.experimentalApi === true ? { experimentalApi: true } : null,
      },
      timeoutMs,
    );
    if (!('result' in init)) throw new Error('initialize failed');
    const initReply = driver.now();
    driver.notify('initialized');
    const threadFrom = driver.frames.length;
    const threadStart = await driver.request(
      'thread/start',
      {
        cwd: iso.workspace,
        approvalPolicy: scenario.approvalPolicy,
        sandbox: scenario.sandbox,
        ephemeral: scenario.ephemeral ?? true,
        // `<workspace>` in its members is this recording's (the transcript names it again)
        ...(JSON.parse(
          JSON.stringify(scenario.threadStart ?? {})
            .split('<workspace>')
            .join(iso.workspace),
        ) as Record<string, unknown>),
      },
      timeoutMs,
    );
    const threadStartReply = driver.now();
    const threadId = (threadStart.result as { thread?: { id?: unknown } } | undefined)?.thread?.id;
    if (typeof threadId !== 'string') throw new Error('thread/start returned no thread id');
    // Waiting for thread/started keeps it from racing our first turn/start in the log.
    const threadStarted = await driver.waitFor((f) => isMethod(f, 'thread/started'), {
      timeoutMs,
      label: 'thread/started',
      from: threadFrom,
    });
    await scenario.afterThreadStart?.(driver, threadId);
    const turns: TurnTimings[] = [];
    for (const plan of scenario.turns) {
      currentTurn = plan;
      turns.push(await runTurn(driver, threadId, plan, timeoutMs, iso.workspace));
    }
    let initAt = initReply;
    let threadAt = threadStartReply;
    let threadStartedAt = threadStarted.t;
    if (scenario.resume !== undefined) {
      // the first process is set-up: closed, and a second one resumes the persisted thread
      await sleep(scenario.settleMs ?? 300);
      await driver.close();
      setUp.push(driver);
      driver = await secondProcess();
      initAt = driver.now();
      let cwd = iso.workspace;
      if (scenario.resume.cwd === 'other') {
        cwd = join(iso.home, 'other-workspace'); // recorded as <home>/other-workspace
        mkdirSync(cwd, { recursive: true });
      }
      const resumedId = scenario.resume.thread === 'unknown' ? randomUUID() : threadId;
      const resumed = await driver.request(
        'thread/resume',
        {
          threadId: resumedId,
          cwd,
          approvalPolicy: scenario.approvalPolicy,
          sandbox: scenario.sandbox,
          excludeTurns: true,
        },
        timeoutMs,
      );
      threadAt = driver.now();
      threadStartedAt = threadAt;
      if ('result' in resumed) {
        for (const plan of scenario.resume.turns) {
          currentTurn = plan;
          turns.push(await runTurn(driver, resumedId, plan, timeoutMs, iso.workspace));
        }
      }
    }
    if (scenario.fork !== undefined) {
      // the source stays open: its process is set-up, the forking one is recorded
      const completed = driver.frames.filter((f) => isMethod(f, 'turn/completed')).at(-1);
      const lastTurnId = completed === undefined ? undefined : turnIdFrom(completed.frame);
      setUp.push(driver);
      driver = await secondProcess();
      initAt = driver.now();
      const forked = await driver.request(
        'thread/fork',
        {
          threadId,
          ...(lastTurnId === undefined ? {} : { lastTurnId }),
          cwd: iso.workspace,
          approvalPolicy: scenario.approvalPolicy,
          sandbox: scenario.sandbox,
          ephemeral: false,
          excludeTurns: true,
        },
        timeoutMs,
      );
      threadAt = driver.now();
      threadStartedAt = threadAt;
      const forkId = (forked.result as { thread?: { id?: unknown } } | undefined)?.thread?.id;
      if (typeof forkId !== 'string') throw new Error('thread/fork returned no thread id');
      for (const plan of scenario.fork.turns) {
        currentTurn = plan;
        turns.push(await runTurn(driver, forkId, plan, timeoutMs, iso.workspace));
      }
    }
    await sleep(scenario.settleMs ?? 300);
    const stdinClosed = driver.now();
    const exit = await driver.close();
    const values = {
      workspace: iso.workspace,
      home: iso.home,
      codexHome: iso.codexHome,
      hostname: hostname(),
    };
    const lines: TranscriptLine[] = driver.frames.map((f) => ({
      seq: f.seq,
      t: round(f.t),
      dir: f.dir,
      frame: sanitizeFrame(f.frame, values),
    }));
    return {
      scenario: scenario.name,
      lines,
      timings: {
        initReply: round(initAt),
        threadStartReply: round(threadAt),
        threadStarted: round(threadStartedAt),
        turns,
        stdinClosed: round(stdinClosed),
        exit: round(exit.t),
      },
      modelRequests: server.requests.length,
      exitCode: exit.code,
      malformedLines: driver.malformedLines,
    };
  } catch (error) {
    // Bounded context only: frame count and whether stderr had anything.
    throw new Error(
      `scenario ${scenario.name} failed after ${driver.frames.length} frames` +
        ` (stderr ${driver.stderr.length} bytes): ${error instanceof Error ? error.message : 'unknown'}`,
      { cause: error },
    );
  } finally {
    for (const d of setUp) await d.close();
    await driver.close();
    await server.close();
    iso.dispose();
  }
}
