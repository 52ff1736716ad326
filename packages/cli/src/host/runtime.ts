/**
 * The runtime every command runs on, with the Codex provider registered as `codex`. The codex
 * executable comes from the CLI (`--codex`, `RELVO_CODEX_EXECUTABLE`, else the pinned one):
 * a profile may name its own `executable`, but an explicit choice on the command line wins.
 */
import { createCodexProvider, type CodexProviderOptions } from '@relvo-labs/agent-provider-codex';
import {
  createAgentRuntime,
  createMemoryEventStore,
  isConfigRefusal,
  type AgentRuntime,
  type RuntimeConfig,
  type RuntimeConfigInput,
} from '@relvo-labs/agent-runtime';
import type { LocatedCodex } from '../codex/locate.js';
import { submitErrorToExit } from '../turn/submit-errors.js';
import { openPrivateEventLog, type PrivateLogOptions } from './event-log.js';
import { openPostgresLog, type PostgresLog } from './event-store.js';
import { startOtlpExport } from './otlp.js';
import { EVENT_LOG_ENV } from '../paths.js';
import { startupErrorToExit } from './startup-checks.js';

export interface CodexRuntimeOptions {
  readonly config: RuntimeConfig | RuntimeConfigInput;
  readonly codex: LocatedCodex;
  /** A SQLite file, a shared PostgreSQL log, or `{ memory: true }` for no durable log. */
  readonly eventLog: string | { readonly memory: true } | { readonly postgres: PostgresLog };
  readonly eventLogOptions?: PrivateLogOptions;
  /** The OTEL_* variables that switch OTLP export on (docs/observability.md). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export function codexFactory(codex: LocatedCodex) {
  const explicit = codex.source !== 'pinned';
  const factory = (options: CodexProviderOptions = {}) =>
    createCodexProvider({
      ...options,
      executable: explicit ? codex.path : (options.executable ?? codex.path),
    });
  // the schemas go along, so that a typo in a profile is refused when the config is loaded
  return Object.assign(factory, { optionSchemas: createCodexProvider.optionSchemas });
}

/** Where a command keeps its log, as `run` and `serve` decide it from their options. */
export interface LogPlace {
  /** `--ephemeral` (or the host config's): no durable log at all. */
  readonly ephemeral: boolean;
  /** `--event-store`: the shared PostgreSQL log. */
  readonly shared: PostgresLog | undefined;
  /** The SQLite file (or the shared log's label, for messages). */
  readonly eventLog: string;
  /** `--event-log` as given: a folder the person named is left as it is. */
  readonly named: string | undefined;
}

/**
 * The runtime of a command that keeps a log (`run`, `serve`): in memory, on the shared
 * PostgreSQL log or in the private SQLite file, the default file's folder owned by the CLI; a
 * log that cannot be used is a one-line usage error naming it.
 */
export async function openLoggedRuntime(
  place: LogPlace,
  options: Pick<CodexRuntimeOptions, 'codex' | 'config'> & { readonly env: NodeJS.ProcessEnv },
): Promise<AgentRuntime> {
  try {
    return await openCodexRuntime({
      ...options,
      eventLog: place.ephemeral
        ? { memory: true }
        : place.shared === undefined
          ? place.eventLog
          : { postgres: place.shared },
      eventLogOptions: { ownsFolder: place.named === undefined && !options.env[EVENT_LOG_ENV] },
    });
  } catch (error) {
    throw startupErrorToExit(error, place.eventLog);
  }
}

export async function openCodexRuntime(options: CodexRuntimeOptions): Promise<AgentRuntime> {
  // first: a missing exporter package stops the command before anything is opened
  const otlp = options.env === undefined ? undefined : await startOtlpExport(options.env);
  let store;
  if (typeof options.eventLog === 'string') {
    store = openPrivateEventLog(options.eventLog, options.eventLogOptions);
  } else if ('postgres' in options.eventLog) {
    store = openPostgresLog(options.eventLog.postgres);
  } else {
    store = createMemoryEventStore();
  }
  const runtime = await createAgentRuntime({
    providers: { codex: codexFactory(options.codex) },
    config: options.config,
    store,
    ...(otlp === undefined ? {} : { telemetry: otlp.telemetry }),
  }).catch(async (error: unknown) => {
    await otlp?.shutdown();
    // a profile's options are refused here now, not at the first turn: the same usage error
    throw isConfigRefusal(error) ? submitErrorToExit(error) : error;
  });
  if (otlp === undefined) return runtime;
  // what the runtime recorded up to its shutdown is exported before the command returns
  return {
    ...runtime,
    shutdown: () => runtime.shutdown().finally(() => otlp.shutdown()),
  };
}
