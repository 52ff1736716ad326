/**
 * initialize → version gate → initialized → thread/start. Any failure is thrown; the caller
 * owns the teardown of the half-open connection.
 */
import { CODEX_CLIENT_TITLE } from '../constants.js';
import { CODEX_CLIENT_METHOD, type CodexSandboxMode } from '../protocol/vocabulary.js';
import { initializeResultSchema, threadStartResultSchema } from '../protocol/wire.js';
import type { SessionConnection } from '../rpc/connection.js';
import { codexRejection } from '../shared/codex-error.js';
import { isCompatibleCodexUserAgent } from './version-gate.js';

export interface HandshakeParams {
  readonly clientName: string;
  readonly clientVersion: string;
  readonly cwd: string;
  readonly approvalPolicy: 'never' | 'on-request' | 'untrusted';
  readonly sandbox: CodexSandboxMode;
  readonly model?: string;
}

/** Resolves the thread id of the session's single ephemeral thread. */
export async function handshake(
  connection: SessionConnection,
  params: HandshakeParams,
): Promise<string> {
  const init = await connection.request(CODEX_CLIENT_METHOD.initialize, {
    clientInfo: {
      name: params.clientName,
      title: CODEX_CLIENT_TITLE,
      version: params.clientVersion,
    },
    // null by construction: experimentalApi and requestAttestation can never be opted into
    capabilities: null,
  });
  const parsedInit = initializeResultSchema.safeParse(init);
  if (
    !parsedInit.success ||
    !isCompatibleCodexUserAgent(parsedInit.data.userAgent, params.clientName)
  ) {
    // the userAgent text is never echoed
    throw codexRejection(
      'provider_unavailable',
      'the codex app-server version is not in the reviewed allowlist',
      { providerCode: 'unsupported_app_server_version' },
    );
  }
  connection.notify(CODEX_CLIENT_METHOD.initialized);
  const started = await connection.request(CODEX_CLIENT_METHOD.threadStart, {
    cwd: params.cwd,
    approvalPolicy: params.approvalPolicy,
    sandbox: params.sandbox,
    ephemeral: true,
    ...(params.model !== undefined ? { model: params.model } : {}),
  });
  const parsedThread = threadStartResultSchema.safeParse(started);
  if (!parsedThread.success) {
    throw codexRejection(
      'provider_contract_violation',
      'codex started a thread without a usable id',
    );
  }
  return parsedThread.data.thread.id;
}
