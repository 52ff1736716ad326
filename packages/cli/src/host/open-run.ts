/**
 * The runtime and the session a `run` drives: a new session, a resumed one (`--resume`) or a
 * fork (`--fork`), after codex was asked whether it is logged in (a turn would only retry). Every refusal becomes a one-line CliExit; a signal meanwhile ends the start.
 */
import type { AgentRuntime, RuntimeSession } from '@relvo-labs/agent-runtime';
import type { LocatedCodex } from '../codex/locate.js';
import { StartupAborted, type SessionCtrlC } from '../turn/ctrl-c.js';
import { requireLogin } from '../turn/preflight.js';
import type { ChosenConfig } from './config.js';
import type { PostgresLog } from './event-store.js';
import { forkFromLog, resumeFromLog, withThreadPersistence } from './resume.js';
import { openLoggedRuntime } from './runtime.js';
import { startupErrorToExit } from './startup-checks.js';

export interface RunSessionPlan {
  readonly codex: LocatedCodex;
  readonly chosen: ChosenConfig;
  readonly workspace: string;
  readonly ephemeral: boolean;
  readonly shared: PostgresLog | undefined;
  /** The SQLite file, or the shared log's label: what messages name. */
  readonly eventLog: string;
  /** `--event-log` as given: a folder the person named is left as it is. */
  readonly namedEventLog: string | undefined;
  readonly resume: string | undefined;
  readonly fork: string | undefined;
  readonly env: NodeJS.ProcessEnv;
}

export interface OpenedRun {
  readonly session: RuntimeSession;
  /** Where the rendering starts: a resumed session's earlier turns are not shown again. */
  readonly fromSequence: number;
  readonly forkedFrom?: string;
}

/** `onRuntime` hears the runtime as soon as it exists, so that it is shut down whatever follows. */
export async function openRunSession(
  plan: RunSessionPlan,
  ctrlC: SessionCtrlC,
  onRuntime: (runtime: AgentRuntime) => void,
): Promise<OpenedRun> {
  const { chosen, codex, workspace, eventLog } = plan;
  try {
    const runtime = await openLoggedRuntime(
      { ephemeral: plan.ephemeral, shared: plan.shared, eventLog, named: plan.namedEventLog },
      {
        codex,
        env: plan.env,
        config: plan.ephemeral ? chosen.config : withThreadPersistence(chosen.config),
      },
    );
    onRuntime(runtime);
    ctrlC.checkpoint();
    // the login check starts a codex of its own: a signal must not wait for its answer
    await ctrlC.unlessAbandoned(requireLogin(chosen, codex, workspace));
    ctrlC.checkpoint();
    if (plan.resume !== undefined) return await resumeFromLog(runtime, plan.resume, eventLog);
    if (plan.fork !== undefined) return await forkFromLog(runtime, plan.fork, eventLog);
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
}
