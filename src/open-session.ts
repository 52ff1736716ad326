/**
 * Opening one session: `createSession`, `resumeSession` and `forkSession` of the provider. Every
 * check of the host's init happens here before anything is spawned; then the connection, the
 * handshake (start, resume or fork of the thread) and the `CodexSession` that owns it. Separate
 * from `provider.ts`, which assembles the provider and answers the session-less questions; a
 * failed handshake hands its connection to the provider's abandoned ledger.
 */
import { codexMcpConfig } from './mcp-servers.js';
import { stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { isAbsolute } from 'node:path';
import type {
  ProviderEventSink,
  ProviderRecoveryRecord,
  ProviderRejection,
  ProviderSession,
  ProviderSessionInit,
} from '@relvo-labs/agent-provider';
import { approvalPolicyOf } from './approval-policy.js';
import { ReleaseCapabilities, requestedFeatures } from './capabilities/gate.js';
import { openConnection } from './connect.js';
import {
  codexSessionOptionsSchema,
  type CodexSessionOptions,
  type ResolvedCodexProviderOptions,
} from './options.js';
import { rateLimitsObserver } from './rate-limits.js';
import type { AbandonedConnections } from './session/abandoned.js';
import { handshake, type HandshakeResult } from './session/handshake.js';
import {
  readRecoveryRecord,
  workspaceDigest,
  type CodexRecoveryOpaque,
} from './session/recovery.js';
import { threadSettings } from './session/diagnostics.js';
import { CodexSession } from './session/session.js';
import { causeTokenOf } from './shared/cause-token.js';
import { codexRejection } from './shared/codex-error.js';
import { parseOptions } from './shared/parse-options.js';
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

export async function openSession(
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
        ...(options.mcpServers === undefined || options.mcpServers.length === 0
          ? {}
          : { config: codexMcpConfig(options.mcpServers) }),
        ...(recorded === undefined ? {} : forking ? { fork: recorded } : { resume: recorded }),
      },
      startup,
    );
  } catch (error) {
    throw await abandoned.tearDownAfterFailedHandshake(connection, error);
  }
  const session = new CodexSession({
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
  try {
    sink.emit(threadSettings(thread.defaults));
  } catch {
    // a host sink that throws must not undo an opened session
  }
  return session;
}
