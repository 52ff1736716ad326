/**
 * initialize → version gate → initialized → thread/start (or thread/resume for a recovery
 * record). Any failure is thrown; the caller owns the teardown of the half-open connection.
 */
import type { JsonObject, ProviderRejection } from '@relvo-labs/agent-provider';
import { CODEX_CLIENT_TITLE } from '../constants.js';
import { CODEX_CLIENT_METHOD, type CodexSandboxMode } from '../protocol/wire-names.js';
import { initializeResultSchema, threadStartResultSchema } from '../protocol/wire.js';
import type { SessionConnection } from '../rpc/connection.js';
import { isAuthoritativeFailure, wireRefusalOf } from '../rpc/errors.js';
import { codexRejection } from '../shared/codex-error.js';
import { placeDigest } from './recovery.js';
import type { ThreadDefaults } from './run-options.js';
import { handshakeInvalid, initializeFailure, type StartupProbe } from './startup-failure.js';
import {
  codexUserAgentVersion,
  isCompatibleCodexUserAgent,
  unsupportedVersionDetails,
} from './version-gate.js';

export interface HandshakeParams {
  readonly clientName: string;
  readonly clientVersion: string;
  readonly cwd: string;
  readonly approvalPolicy: 'never' | 'on-request' | 'untrusted';
  readonly sandbox: CodexSandboxMode;
  readonly model?: string;
  /** Releases the host reviewed itself, accepted besides the built-in allowlist. */
  readonly additionalVersions?: readonly string[];
  /**
   * Asked once the version gate accepted the release, before `initialized`: a refusal here
   * (a feature the release lacks, ADR-0042) is thrown and nothing further is sent.
   */
  readonly capabilityGate?: (codexVersion: string) => ProviderRejection | undefined;
  /** `initialize.capabilities.experimentalApi` (the host's `experimentalApi` option). */
  readonly experimentalApi?: boolean;
  /** `thread/start.dynamicTools`: the session's host tools (a new thread only). */
  readonly dynamicTools?: readonly Record<string, unknown>[];
  /** `false` persists the thread so that it can be resumed (`persistence: 'thread'`). */
  readonly ephemeral?: boolean;
  /** Resume this persisted thread instead of starting one (ADR-0016). */
  readonly resume?: RecordedThread;
  /** Fork this persisted thread into a new one instead of starting one (ADR-0041). */
  readonly fork?: RecordedThread;
  /** codex config for the thread (`config`), sent on start, resume and fork alike. */
  readonly config?: JsonObject;
}

export interface RecordedThread {
  readonly threadId: string;
  /** The digest the record holds; another codex home is refused before the request. */
  readonly codexHomeDigest: string;
  /** A fork goes through this turn, inclusive: a turn started after the record is left out. */
  readonly lastTurnId?: string | undefined;
}

export interface HandshakeResult {
  readonly threadId: string;
  /** The release the server reported, as the version gate read it. */
  readonly codexVersion: string;
  /** The thread's model and effort, as codex answered them. */
  readonly defaults: ThreadDefaults;
  /** Digest of the codex home the server reported (`initialize.codexHome`). */
  readonly codexHomeDigest: string;
}

/**
 * initialize → version gate → capability gate → initialized: a connection any request may
 * follow. Resolves the release and the digest of the codex home the server reported.
 */
export async function initializeConnection(
  connection: SessionConnection,
  params: Pick<
    HandshakeParams,
    'clientName' | 'clientVersion' | 'additionalVersions' | 'capabilityGate' | 'experimentalApi'
  >,
  probe?: StartupProbe,
): Promise<Omit<HandshakeResult, 'threadId' | 'defaults'>> {
  let init: unknown;
  try {
    init = await connection.request(CODEX_CLIENT_METHOD.initialize, {
      clientInfo: {
        name: params.clientName,
        title: CODEX_CLIENT_TITLE,
        version: params.clientVersion,
      },
      // the experimental API only on the host's explicit opt-in (ADR-0064); never attestation
      capabilities: params.experimentalApi === true ? { experimentalApi: true } : null,
    });
  } catch (error) {
    throw probe === undefined ? error : await initializeFailure(error, probe);
  }
  const parsedInit = initializeResultSchema.safeParse(init);
  // something answered, but not an initialize response (no string userAgent): not codex app-server
  if (!parsedInit.success) throw handshakeInvalid();
  if (
    !isCompatibleCodexUserAgent(
      parsedInit.data.userAgent,
      params.clientName,
      params.additionalVersions,
    )
  ) {
    // Not retryable: the same binary fails the same way. Only a version-shaped token is echoed.
    throw codexRejection(
      'provider_rejected',
      'the codex app-server version is not in the reviewed allowlist',
      {
        providerCode: 'unsupported_app_server_version',
        details: unsupportedVersionDetails(parsedInit.data.userAgent, params.clientName),
      },
    );
  }
  // defined: the gate above accepted it
  const codexVersion = codexUserAgentVersion(parsedInit.data.userAgent, params.clientName) ?? '';
  const refused = params.capabilityGate?.(codexVersion);
  if (refused !== undefined) throw refused;
  const home = parsedInit.data.codexHome;
  connection.notify(CODEX_CLIENT_METHOD.initialized);
  return {
    codexVersion,
    codexHomeDigest: placeDigest('codex-home', typeof home === 'string' ? home : ''),
  };
}

/** Resolves the thread id of the session's single thread and the server's codex home digest. */
export async function handshake(
  connection: SessionConnection,
  params: HandshakeParams,
  probe?: StartupProbe,
): Promise<HandshakeResult> {
  const { codexVersion, codexHomeDigest } = await initializeConnection(connection, params, probe);
  const settings = {
    cwd: params.cwd,
    approvalPolicy: params.approvalPolicy,
    sandbox: params.sandbox,
    ...(params.model !== undefined ? { model: params.model } : {}),
    ...(params.config !== undefined ? { config: params.config } : {}),
  };
  if (params.resume !== undefined) {
    const thread = await continueThread(connection, settings, params.resume, codexHomeDigest);
    return { ...thread, codexVersion, codexHomeDigest };
  }
  if (params.fork !== undefined) {
    const thread = await continueThread(connection, settings, params.fork, codexHomeDigest, 'fork');
    return { ...thread, codexVersion, codexHomeDigest };
  }
  const started = await connection.request(CODEX_CLIENT_METHOD.threadStart, {
    ...settings,
    ephemeral: params.ephemeral ?? true,
    ...(params.dynamicTools !== undefined && params.dynamicTools.length > 0
      ? { dynamicTools: params.dynamicTools }
      : {}),
  });
  const parsedThread = threadStartResultSchema.safeParse(started);
  if (!parsedThread.success) {
    throw codexRejection(
      'provider_contract_violation',
      'codex started a thread without a usable id',
    );
  }
  return { ...threadOf(parsedThread.data), codexVersion, codexHomeDigest };
}

function threadOf(result: {
  readonly thread: { readonly id: string };
  readonly model?: string | undefined;
  readonly reasoningEffort?: string | null | undefined;
}): { threadId: string; defaults: ThreadDefaults } {
  return {
    threadId: result.thread.id,
    defaults: { model: result.model, effort: result.reasoningEffort ?? undefined },
  };
}

/**
 * `thread/resume` (or `thread/fork`) with `excludeTurns: true` (no history in the reply, no
 * deprecation notice; the model still gets the history). Codex refuses an unknown thread and
 * another codex home itself, but accepts another cwd and silently moves the thread: the
 * workspace is checked before any of this (recovery.ts), the home here, before the request.
 * A fork is a new persisted thread; it goes through the record's last turn (measured on 0.171.0:
 * the source may stay open in another app-server, and an unknown turn is refused -32600).
 */
async function continueThread(
  connection: SessionConnection,
  settings: Record<string, unknown>,
  recorded: RecordedThread,
  codexHomeDigest: string,
  how: 'resume' | 'fork' = 'resume',
): Promise<{ threadId: string; defaults: ThreadDefaults }> {
  if (recorded.codexHomeDigest !== codexHomeDigest) {
    throw codexRejection('invalid_request', 'the recovery record belongs to another codex home', {
      providerCode: 'recovery_codex_home_mismatch',
    });
  }
  let resumed: unknown;
  try {
    resumed =
      how === 'resume'
        ? await connection.request(CODEX_CLIENT_METHOD.threadResume, {
            threadId: recorded.threadId,
            ...settings,
            excludeTurns: true,
          })
        : await connection.request(CODEX_CLIENT_METHOD.threadFork, {
            threadId: recorded.threadId,
            ...(recorded.lastTurnId === undefined ? {} : { lastTurnId: recorded.lastTurnId }),
            ...settings,
            ephemeral: false,
            excludeTurns: true,
          });
  } catch (error) {
    // measured: a thread another app-server still has open is refused "already has an active
    // writer" — said precisely, so the host knows to close the other session, not to give up
    if (wireRefusalOf(error) === 'thread_active_writer') {
      // retryable: the other app-server lets go when its host closes or its process ends
      throw codexRejection(
        'provider_unavailable',
        'the persisted thread is still open in another codex session',
        { providerCode: 'recovery_thread_open_elsewhere' },
      );
    }
    // an authoritative refusal (-32600 "no rollout found…", "invalid session id"): the text is
    // never echoed
    if (isAuthoritativeFailure(error)) {
      throw codexRejection(
        'invalid_request',
        'codex has no persisted thread for the recovery record',
        {
          providerCode: 'recovery_thread_unknown',
        },
      );
    }
    throw error;
  }
  const parsed = threadStartResultSchema.safeParse(resumed);
  const same = parsed.success && parsed.data.thread.id === recorded.threadId;
  if (!parsed.success || same !== (how === 'resume')) {
    throw codexRejection(
      'provider_contract_violation',
      how === 'resume' ? 'codex resumed a different thread' : 'codex forked into the same thread',
    );
  }
  return threadOf(parsed.data);
}
