/**
 * `createCodexProvider()`: the SPI's AgentProvider for `codex app-server`. Each session
 * is one connection, handshaken here; a failed handshake tears its connection down, and a
 * connection that cannot be torn down is kept in the abandoned ledger instead of leaking.
 */
import { isAbsolute } from 'node:path';
import type {
  AgentProvider,
  ProviderDescriptor,
  ProviderRecoveryRecord,
  ProviderRejection,
  ProviderSession,
  ProviderSessionInit,
} from '@relvo-labs/agent-provider';
import { approvalPolicyOf } from './approval-policy.js';
import { buildCodexDescriptor } from './descriptor.js';
import {
  codexProviderOptionsSchema,
  codexSessionOptionsSchema,
  type CodexProviderOptions,
  type ResolvedCodexProviderOptions,
} from './options.js';
import { CodexConnection } from './rpc/connection.js';
import { AbandonedConnections, type ReleaseSummary } from './session/abandoned.js';
import { handshake } from './session/handshake.js';
import { placeDigest, readRecoveryRecord, type CodexRecoveryOpaque } from './session/recovery.js';
import { CodexSession } from './session/session.js';
import { causeTokenOf } from './shared/cause-token.js';
import { codexRejection } from './shared/codex-error.js';
import { createCodexStdioTransport } from './transport/stdio.js';
import type {
  CodexResourceUsage,
  CodexTransport,
  CodexTransportFactory,
} from './transport/types.js';

/** The session `createSession` resolves: the SPI session plus host-facing extras. */
export interface CodexProviderSession extends ProviderSession {
  /** RSS and CPU of the app-server's process group; undefined when the transport cannot say. */
  resourceUsage(): Promise<CodexResourceUsage | undefined>;
}

export interface CodexProvider extends AgentProvider {
  createSession(init: ProviderSessionInit): Promise<CodexProviderSession>;
  /** Present only with `persistence: 'thread'` (ADR-0016). */
  resumeSession?(
    record: ProviderRecoveryRecord,
    init: ProviderSessionInit,
  ): Promise<CodexProviderSession>;
  /** Retries the teardown of every connection a failed handshake could not close. */
  releaseAbandonedConnections(): Promise<ReleaseSummary>;
  readonly abandonedConnectionCount: number;
}

export type CodexProviderFactory = (options?: CodexProviderOptions) => CodexProvider;

function invalid(message: string, details?: Record<string, string>): ProviderRejection {
  return codexRejection('invalid_request', message, details ? { details } : {});
}

export const createCodexProvider: CodexProviderFactory = (input = {}) => {
  const parsed = codexProviderOptionsSchema.safeParse(input);
  if (!parsed.success) {
    throw invalid('invalid codex provider options', {
      issues: parsed.error.issues.map((i) => i.path.join('.')).join(','),
    });
  }
  const options = parsed.data;
  const descriptor = buildCodexDescriptor(options);
  const abandoned = new AbandonedConnections();
  const factory: CodexTransportFactory = options.transport ?? defaultTransportFactory(options);

  const resume =
    options.persistence === 'thread'
      ? {
          resumeSession(
            record: ProviderRecoveryRecord,
            init: ProviderSessionInit,
          ): Promise<CodexProviderSession> {
            return openSession(init, options, factory, abandoned, record);
          },
        }
      : {};
  return {
    ...resume,
    describe(): ProviderDescriptor {
      return descriptor;
    },
    createSession(init: ProviderSessionInit): Promise<CodexProviderSession> {
      return openSession(init, options, factory, abandoned);
    },
    releaseAbandonedConnections: () => abandoned.releaseAll(),
    get abandonedConnectionCount() {
      return abandoned.count;
    },
  };
};

function defaultTransportFactory(options: ResolvedCodexProviderOptions): CodexTransportFactory {
  return ({ cwd }) =>
    createCodexStdioTransport({
      executable: options.executable,
      extraArgs: [...options.extraArgs],
      cwd,
      parentDeathSignal: options.parentDeathSignal,
      ...(options.env !== undefined ? { env: options.env } : {}),
    });
}

async function openSession(
  init: ProviderSessionInit,
  options: ResolvedCodexProviderOptions,
  factory: CodexTransportFactory,
  abandoned: AbandonedConnections,
  record?: ProviderRecoveryRecord,
): Promise<CodexProviderSession> {
  // both checks happen before anything is spawned
  const sessionOptions = codexSessionOptionsSchema.safeParse(init.options);
  if (!sessionOptions.success) throw invalid('invalid codex session options');
  const root = init.workspace.root;
  if (typeof root !== 'string' || root.length === 0 || !isAbsolute(root)) {
    throw invalid('the codex workspace root must be an absolute path');
  }
  // another provider's, another wire's or another workspace's record: refused before a spawn
  const recovery: CodexRecoveryOpaque | undefined =
    record === undefined ? undefined : readRecoveryRecord(record, root);

  let transport: CodexTransport;
  try {
    transport = await factory({ cwd: root });
  } catch (error) {
    const token = causeTokenOf(error);
    throw codexRejection(
      'provider_unavailable',
      `codex transport could not be created (${token})`,
      { details: { cause: token } },
      { cause: error },
    );
  }

  const connection = new CodexConnection(transport, { requestTimeoutMs: options.requestTimeoutMs });
  const sandboxMode = sessionOptions.data.sandboxMode ?? options.sandboxMode;
  const model = sessionOptions.data.model ?? options.model;
  let thread: { threadId: string; codexHomeDigest: string };
  try {
    thread = await handshake(connection, {
      clientName: options.clientName,
      clientVersion: options.clientVersion,
      cwd: root,
      approvalPolicy: approvalPolicyOf(options),
      sandbox: sandboxMode,
      additionalVersions: options.additionalAppServerVersions,
      ...(model !== undefined ? { model } : {}),
      ephemeral: options.persistence !== 'thread',
      ...(recovery !== undefined
        ? { resume: { threadId: recovery.threadId, codexHomeDigest: recovery.codexHome } }
        : {}),
    });
  } catch (error) {
    throw await abandoned.tearDownAfterFailedHandshake(connection, error);
  }
  return new CodexSession({
    threadId: thread.threadId,
    ...(options.persistence === 'thread'
      ? {
          recovery: {
            codexHomeDigest: thread.codexHomeDigest,
            workspaceDigest: placeDigest('workspace', root),
            ...(recovery?.lastTurnId !== undefined ? { replayedTurnId: recovery.lastTurnId } : {}),
          },
        }
      : {}),
    connection,
    sink: init.sink,
    stall:
      options.stallTimeoutMs === null
        ? undefined
        : { timeoutMs: options.stallTimeoutMs, graceMs: options.stallGraceMs },
    bridges: {
      approvals: options.approvals === 'bridge',
      questions: options.questions === 'bridge',
      fileChanges: options.fileChanges === 'bridge',
    },
    workspaceRoot: root,
    toolActivity: options.toolActivity === 'redacted',
    fileReferences: options.fileReferences === 'resolve',
  });
}
