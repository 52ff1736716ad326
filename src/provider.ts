/**
 * `createCodexProvider()`: the SPI's AgentProvider for `codex app-server`. Each session
 * is one connection, handshaken here; a failed handshake tears its connection down, and a
 * connection that cannot be torn down is kept in the abandoned ledger instead of leaking.
 */
import { stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { isAbsolute } from 'node:path';
import {
  type AgentProvider,
  type ProviderDescriptor,
  type ProviderEventSink,
  type ProviderOptionSchemas,
  type ProviderRecoveryRecord,
  type ProviderRejection,
  type ProviderSession,
  type ProviderSessionInit,
} from '@relvo-labs/agent-provider';
import { readCodexAccount, type CodexAccountStatus, type ReadAccountInit } from './account.js';
import {
  listCodexModels,
  listModelsInitSchema,
  type CodexModelList,
  type ListModelsInit,
} from './models.js';
import type { CodexProbe } from './probe.js';
import {
  rateLimitsObserver,
  readCodexRateLimits,
  type CodexRateLimitsRead,
  type ReadRateLimitsInit,
} from './rate-limits.js';
import { approvalPolicyOf, permissionsToolArgs } from './approval-policy.js';
import { ReleaseCapabilities, requestedFeatures } from './capabilities/gate.js';
import { buildCodexDescriptor } from './descriptor.js';
import {
  codexProviderOptionsSchema,
  codexSessionOptionsSchema,
  type CodexProviderOptions,
  type CodexSessionOptions,
  type ResolvedCodexProviderOptions,
} from './options.js';
import { openConnection } from './connect.js';
import { AbandonedConnections, type ReleaseSummary } from './session/abandoned.js';
import { handshake, type HandshakeResult } from './session/handshake.js';
import {
  readRecoveryRecord,
  workspaceDigest,
  type CodexRecoveryOpaque,
} from './session/recovery.js';
import { CodexSession } from './session/session.js';
import { causeTokenOf } from './shared/cause-token.js';
import { codexRejection } from './shared/codex-error.js';
import { parseOptions } from './shared/parse-options.js';
import { eventsArgs } from './events/schemas.js';
import { commandEnvironmentArgs, inheritedEnvironment } from './transport/environment.js';
import { createCodexStdioTransport } from './transport/stdio.js';
import type { CodexResourceUsage, CodexTransportFactory } from './transport/types.js';

/** The session `createSession` resolves: the SPI session plus host-facing extras. */
export interface CodexProviderSession extends ProviderSession {
  /** RSS and CPU of the app-server's process group; undefined when the transport cannot say. */
  resourceUsage(): Promise<CodexResourceUsage | undefined>;
}

/** `ProviderSessionInit` with the session options typed (`CodexSessionOptions`). */
export interface CodexSessionInit extends Omit<ProviderSessionInit, 'options'> {
  readonly options: CodexSessionOptions;
}

export interface CodexProvider extends AgentProvider {
  createSession(init: CodexSessionInit): Promise<CodexProviderSession>;
  /** Present only with `persistence: 'thread'` (ADR-0016). */
  resumeSession?(
    record: ProviderRecoveryRecord,
    init: CodexSessionInit,
  ): Promise<CodexProviderSession>;
  /**
   * Present only with `persistence: 'thread'` (ADR-0041): a new persisted thread (`thread/fork`)
   * holding the record's thread through its last turn; the record's own thread is unchanged.
   */
  forkSession?(
    record: ProviderRecoveryRecord,
    init: CodexSessionInit,
  ): Promise<CodexProviderSession>;
  /**
   * Whether codex is logged in, asked of codex itself on a connection of its own (initialize,
   * `account/read`, close); nothing reaches a model. Rejects like `createSession` when codex
   * cannot be started or is outside the reviewed window.
   */
  readAccount(init?: ReadAccountInit): Promise<CodexAccountStatus>;
  /**
   * The models codex offers (`model/list`, its bundled catalog: no login needed), on a
   * connection of its own; pages followed up to a cap, each model reduced to `CodexModel`.
   */
  listModels(init?: ListModelsInit): Promise<CodexModelList>;
  /**
   * The account's rate limits (`account/rateLimits/read`) on a connection of its own, or
   * `{ available: false, reason: 'not_chatgpt_login' }`: codex reads them for a ChatGPT login only.
   */
  readRateLimits(init?: ReadRateLimitsInit): Promise<CodexRateLimitsRead>;
  /** Retries the teardown of every connection a failed handshake could not close. */
  releaseAbandonedConnections(): Promise<ReleaseSummary>;
  readonly abandonedConnectionCount: number;
}

export type CodexProviderFactory = ((options?: CodexProviderOptions) => CodexProvider) & {
  /** The option schemas, so a runtime refuses a bad profile when it loads its config. */
  readonly optionSchemas: ProviderOptionSchemas;
};

const create = (input: CodexProviderOptions = {}): CodexProvider => {
  const parsed = parseOptions(codexProviderOptionsSchema, input, 'invalid codex provider options');
  if (!parsed.ok) throw parsed.rejection;
  const options = parsed.data;
  const descriptor = buildCodexDescriptor(options);
  const abandoned = new AbandonedConnections();
  const spawning = options.transport === undefined;
  const factory: CodexTransportFactory = options.transport ?? defaultTransportFactory(options);
  /** A session-less question's connection (src/probe.ts). */
  const probeOf = (cwd: string | undefined): CodexProbe => ({
    connect: () => openConnection(factory, cwd ?? process.cwd(), options),
    handshake: {
      clientName: options.clientName,
      clientVersion: options.clientVersion,
      additionalVersions: options.additionalAppServerVersions,
    },
    abandoned,
  });

  const resume =
    options.persistence === 'thread'
      ? {
          resumeSession(
            record: ProviderRecoveryRecord,
            init: CodexSessionInit,
          ): Promise<CodexProviderSession> {
            return openSession(init, options, factory, spawning, abandoned, { record });
          },
          forkSession(
            record: ProviderRecoveryRecord,
            init: CodexSessionInit,
          ): Promise<CodexProviderSession> {
            return openSession(init, options, factory, spawning, abandoned, {
              record,
              fork: true,
            });
          },
        }
      : {};
  return {
    ...resume,
    describe(): ProviderDescriptor {
      return descriptor;
    },
    createSession(init: CodexSessionInit): Promise<CodexProviderSession> {
      return openSession(init, options, factory, spawning, abandoned);
    },
    readAccount: (init = {}) => readCodexAccount(probeOf(init.cwd)),
    listModels: async (init = {}) => {
      const parsed = parseOptions(listModelsInitSchema, init, 'invalid listModels options');
      if (!parsed.ok) throw parsed.rejection;
      const { cwd, ...rest } = parsed.data;
      return listCodexModels(probeOf(cwd), rest);
    },
    readRateLimits: (init = {}) => readCodexRateLimits(probeOf(init.cwd)),
    releaseAbandonedConnections: () => abandoned.releaseAll(),
    get abandonedConnectionCount() {
      return abandoned.count;
    },
  };
};

export const createCodexProvider: CodexProviderFactory = Object.assign(create, {
  optionSchemas: {
    providerOptions: codexProviderOptionsSchema,
    sessionOptions: codexSessionOptionsSchema,
  },
});

function defaultTransportFactory(options: ResolvedCodexProviderOptions): CodexTransportFactory {
  return ({ cwd }) =>
    createCodexStdioTransport({
      executable: options.executable,
      // after the host's arguments, right before the subcommand (a host that wants its own
      // shell_environment_policy sets commandEnvironment: 'inherit')
      extraArgs: [
        ...options.extraArgs,
        ...commandEnvironmentArgs(options.commandEnvironment),
        ...eventsArgs(options.events),
        ...permissionsToolArgs(options),
      ],
      cwd,
      parentDeathSignal: options.parentDeathSignal,
      env: options.env ?? inheritedEnvironment(process.env, options.inheritEnv),
    });
}

/** The workspace must be a directory we can enter before anything is spawned in it. */
async function checkWorkspace(root: string): Promise<ProviderRejection | undefined> {
  let info: Stats;
  try {
    info = await stat(root);
  } catch (error) {
    const token = causeTokenOf(error);
    return token === 'ENOENT'
      ? codexRejection('workspace_unavailable', 'the codex workspace root does not exist', {
          providerCode: 'workspace_missing',
        })
      : codexRejection(
          'workspace_unavailable',
          `the codex workspace root cannot be read (${token})`,
          {
            providerCode: 'workspace_inaccessible',
            details: { cause: token },
          },
        );
  }
  if (!info.isDirectory()) {
    return codexRejection('invalid_request', 'the codex workspace root is not a directory', {
      providerCode: 'workspace_not_directory',
    });
  }
  return undefined;
}

function isSink(value: unknown): value is ProviderEventSink {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { emit?: unknown }).emit === 'function'
  );
}

/** Reads `init` once; a throwing getter or proxy is a refusal. */
function readInit(init: unknown): { options: unknown; root: unknown; sink: unknown } | undefined {
  try {
    const i = init as { options?: unknown; workspace?: { root?: unknown }; sink?: unknown };
    return { options: i.options, root: i.workspace?.root, sink: i.sink };
  } catch {
    return undefined;
  }
}

async function openSession(
  init: CodexSessionInit,
  options: ResolvedCodexProviderOptions,
  factory: CodexTransportFactory,
  spawning: boolean,
  abandoned: AbandonedConnections,
  from?: { readonly record: ProviderRecoveryRecord; readonly fork?: boolean },
): Promise<CodexProviderSession> {
  // every check happens before anything is spawned
  const read = readInit(init);
  if (read === undefined) {
    throw codexRejection('invalid_request', 'the codex session init is malformed');
  }
  if (!isSink(read.sink)) {
    throw codexRejection('invalid_request', 'a codex session needs a sink with an emit function', {
      providerCode: 'sink_missing',
    });
  }
  const sink = read.sink;
  const sessionOptions = parseOptions(
    codexSessionOptionsSchema,
    read.options,
    'invalid codex session options',
  );
  if (!sessionOptions.ok) throw sessionOptions.rejection;
  const root = read.root;
  if (typeof root !== 'string' || root.length === 0 || !isAbsolute(root)) {
    throw codexRejection('invalid_request', 'the codex workspace root must be an absolute path');
  }
  if (spawning) {
    const refused = await checkWorkspace(root);
    if (refused !== undefined) throw refused;
  }
  // another provider's, another wire's or another workspace's record: refused before a spawn
  const recovery: CodexRecoveryOpaque | undefined =
    from === undefined ? undefined : readRecoveryRecord(from.record, root);
  const recorded =
    recovery === undefined
      ? undefined
      : {
          threadId: recovery.threadId,
          codexHomeDigest: recovery.codexHome,
          lastTurnId: recovery.lastTurnId,
        };
  const forking = from?.fork === true;

  const { connection, startup } = await openConnection(factory, root, options);
  const sandboxMode = sessionOptions.data.sandboxMode ?? options.sandboxMode;
  const model = sessionOptions.data.model ?? options.model;
  let thread: HandshakeResult;
  // the options' features, refused once the release is known and before any thread (ADR-0042)
  const features = requestedFeatures(options);
  try {
    thread = await handshake(
      connection,
      {
        clientName: options.clientName,
        clientVersion: options.clientVersion,
        cwd: root,
        approvalPolicy: approvalPolicyOf(options),
        sandbox: sandboxMode,
        additionalVersions: options.additionalAppServerVersions,
        capabilityGate: (version) => new ReleaseCapabilities(version).refusal(features),
        ...(model !== undefined ? { model } : {}),
        ephemeral: options.persistence !== 'thread',
        ...(recorded === undefined ? {} : forking ? { fork: recorded } : { resume: recorded }),
      },
      startup,
    );
  } catch (error) {
    throw await abandoned.tearDownAfterFailedHandshake(connection, error);
  }
  return new CodexSession({
    threadId: thread.threadId,
    // a resumed thread answers a run's options it still holds as its own: the record knows better
    threadDefaults: (!forking ? recovery?.settings?.defaults : undefined) ?? thread.defaults,
    ...(!forking && recovery?.settings !== undefined
      ? { heldOptions: recovery.settings.changed }
      : {}),
    ...(forking && recovery?.total !== undefined ? { threadTotal: recovery.total } : {}),
    ...(options.persistence === 'thread'
      ? {
          recovery: {
            codexHomeDigest: thread.codexHomeDigest,
            workspaceDigest: workspaceDigest(root),
            // a fork replays nothing (measured on 0.171.0): only a resume's usage replay is retired
            ...(recovery?.lastTurnId !== undefined && !forking
              ? { replayedTurnId: recovery.lastTurnId }
              : {}),
          },
        }
      : {}),
    connection,
    sink,
    capabilities: new ReleaseCapabilities(thread.codexVersion),
    requestTimeoutMs: options.requestTimeoutMs,
    stall:
      options.stallTimeoutMs === null
        ? undefined
        : { timeoutMs: options.stallTimeoutMs, graceMs: options.stallGraceMs },
    bridges: {
      approvals: options.approvals === 'bridge',
      questions: options.questions === 'bridge',
      fileChanges: options.fileChanges === 'bridge',
      outsideWorkspaceChanges: options.outsideWorkspaceChanges,
      permissions: options.permissions === 'bridge',
      elicitations: options.mcpElicitations === 'bridge',
      showElicitationUrls: options.elicitationUrls === 'show',
    },
    workspaceRoot: root,
    toolActivity: options.toolActivity === 'redacted',
    fileReferences: options.fileReferences === 'resolve',
    events: options.events,
    ...(options.onRateLimits !== undefined
      ? { onRateLimits: rateLimitsObserver(options.onRateLimits) }
      : {}),
  });
}
