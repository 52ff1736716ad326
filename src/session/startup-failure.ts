/**
 * Why `initialize` got no usable answer: the executable could not be started,
 * the process exited (with its exit code or signal), it answered something that is not codex,
 * or it never answered. Bounded tokens and numbers only: no stderr, path or upstream text.
 */
import type { ProviderRejection } from '@relvo-labs/agent-provider';
import type { ThrownCauseToken } from '../shared/cause-token.js';
import type { RpcEnd } from '../rpc/client.js';
import { agentErrorOf, isCodexRpcError } from '../rpc/errors.js';
import { codexRejection } from '../shared/codex-error.js';
import type { CodexExitStatus } from '../transport/types.js';

/** What the handshake can learn about the process when `initialize` fails. */
export interface StartupProbe {
  /** How the connection's inbound stream ended, once it has. */
  end(): RpcEnd | undefined;
  /** The leader's exit status once it is known (undefined for a transport that cannot say). */
  exitStatus(): CodexExitStatus | undefined;
  readonly requestTimeoutMs: number;
}

/** Causes that mean "this executable cannot be started": retrying the same one cannot help. */
const PERMANENT_SPAWN_CAUSES: ReadonlySet<ThrownCauseToken> = new Set([
  'ENOENT',
  'EACCES',
  'ENOTDIR',
  'EPERM',
]);

/** How long to wait for the exit status after the stream ended (the leader exits around EOF). */
const EXIT_STATUS_WAIT_MS = 2_000;
const EXIT_STATUS_POLL_MS = 20;

export function spawnFailed(cause: ThrownCauseToken): ProviderRejection {
  return codexRejection(
    PERMANENT_SPAWN_CAUSES.has(cause) ? 'provider_rejected' : 'provider_unavailable',
    `codex could not be started (${cause})`,
    { providerCode: 'spawn_failed', details: { cause } },
  );
}

export function exitedBeforeInitialize(status: CodexExitStatus): ProviderRejection {
  if (status.signal !== null) {
    // killed from outside (OOM, a supervisor): another attempt may well succeed
    return codexRejection(
      'provider_unavailable',
      `codex exited before answering initialize (signal ${status.signal})`,
      { providerCode: 'exited_before_initialize', details: { signal: status.signal } },
    );
  }
  const exitCode = status.code ?? -1;
  // an exit code is codex (or whatever was started) refusing this configuration
  return codexRejection(
    'provider_rejected',
    `codex exited before answering initialize (exit code ${exitCode})`,
    { providerCode: 'exited_before_initialize', details: { exitCode } },
  );
}

export function handshakeInvalid(): ProviderRejection {
  return codexRejection(
    'provider_contract_violation',
    'the program started as codex did not answer initialize like codex app-server',
    { providerCode: 'handshake_invalid' },
  );
}

/** The error `createSession` reports for a failed `initialize` request. */
export async function initializeFailure(error: unknown, probe: StartupProbe): Promise<unknown> {
  const timedOut = isCodexRpcError(error) && error.providerCode === 'request_timeout';
  if (timedOut) {
    return codexRejection(
      'provider_unavailable',
      `codex did not answer initialize within ${probe.requestTimeoutMs} ms`,
      { providerCode: 'initialize_timeout', details: { timeoutMs: probe.requestTimeoutMs } },
    );
  }
  const code = agentErrorOf(error)?.providerCode;
  if (code !== 'connection_lost' && code !== 'connection_closed' && code !== 'write_failed') {
    return error;
  }
  // the request failed because the process is gone (or never started): learn which
  const found = await awaitEnding(probe);
  if (found === undefined) return error;
  if ('spawnCause' in found) return spawnFailed(found.spawnCause);
  return exitedBeforeInitialize(found);
}

/** A spawn failure, or the exit status, once either is known; bounded. */
async function awaitEnding(
  probe: StartupProbe,
): Promise<CodexExitStatus | { readonly spawnCause: ThrownCauseToken } | undefined> {
  for (let waited = 0; waited <= EXIT_STATUS_WAIT_MS; waited += EXIT_STATUS_POLL_MS) {
    const end = probe.end();
    if (end?.kind === 'failed' && end.causeToken === 'spawn_failed') {
      return { spawnCause: end.spawnCause ?? 'unknown' };
    }
    const status = probe.exitStatus();
    if (status !== undefined) return status;
    await new Promise<void>((resolve) => {
      setTimeout(resolve, EXIT_STATUS_POLL_MS);
    });
  }
  return undefined;
}
