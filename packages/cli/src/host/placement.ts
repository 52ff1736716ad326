import { resolve } from 'node:path';
import { defaultEventLogPath } from '../paths.js';
import type { ChosenConfig } from './config.js';
import { parseCliHostSettings } from './settings.js';
import { checkWorkspace } from './startup-checks.js';

export interface SessionPlacement {
  /** The workspace, resolved against the current directory and checked. */
  readonly workspace: string;
  /** Keep no event log: `--ephemeral`, or the config's `host.ephemeral` without `--event-log`. */
  readonly ephemeral: boolean;
  /** Where the event log is (meaningful only when not ephemeral). */
  readonly eventLog: string;
}

/** Where a command's sessions work and what they log to, as `run` and `serve` both decide it. */
export function placeSessions(
  options: {
    readonly cwd: string | undefined;
    readonly eventLog: string | undefined;
    /** `--event-store`: a shared PostgreSQL log, named explicitly like --event-log. */
    readonly eventStore?: string | undefined;
    readonly ephemeral: boolean;
  },
  chosen: ChosenConfig,
  cwd: string,
  env: NodeJS.ProcessEnv,
): SessionPlacement {
  const workspace = resolve(cwd, options.cwd ?? '.');
  checkWorkspace(workspace);
  // an explicit --event-log or --event-store wins over the config's `host.ephemeral`
  const ephemeral =
    options.ephemeral ||
    (options.eventLog === undefined &&
      options.eventStore === undefined &&
      parseCliHostSettings(chosen.config.host, chosen.source).ephemeral);
  const eventLog =
    options.eventLog === undefined ? defaultEventLogPath(env) : resolve(cwd, options.eventLog);
  return { workspace, ephemeral, eventLog };
}
