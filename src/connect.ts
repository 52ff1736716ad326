/**
 * One transport and its JSON-RPC connection, for a session or a session-less request
 * (`readAccount`); a factory that throws becomes a typed refusal naming only a cause token.
 */
import { isProviderRejection } from '@relvo-labs/agent-provider';
import type { ResolvedCodexProviderOptions } from './options.js';
import { CodexConnection } from './rpc/connection.js';
import type { StartupProbe } from './session/startup-failure.js';
import { causeTokenOf } from './shared/cause-token.js';
import { codexRejection } from './shared/codex-error.js';
import type { AnyCodexTransport, CodexTransportFactory } from './transport/types.js';

/** The transport and its connection, with what a failed `initialize` is explained by. */
export async function openConnection(
  factory: CodexTransportFactory,
  cwd: string,
  options: ResolvedCodexProviderOptions,
): Promise<{ connection: CodexConnection; startup: StartupProbe }> {
  let transport: AnyCodexTransport;
  try {
    transport = await factory({ cwd });
  } catch (error) {
    if (isProviderRejection(error)) throw error;
    const token = causeTokenOf(error);
    throw codexRejection(
      'provider_unavailable',
      `codex transport could not be created (${token})`,
      { details: { cause: token } },
      { cause: error },
    );
  }
  const connection = new CodexConnection(transport, {
    requestTimeoutMs: options.requestTimeoutMs,
  });
  return {
    connection,
    startup: {
      end: () => connection.end,
      exitStatus: () => transport.exitStatus?.(),
      requestTimeoutMs: options.requestTimeoutMs,
    },
  };
}
