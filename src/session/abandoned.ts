/**
 * Connections a failed handshake could not tear down. No session exists for a caller to
 * dispose, so the provider keeps them and retries on request (attempt-all, never fail-fast).
 */
import {
  agentError,
  isProviderRejection,
  ProviderRejection,
  type AgentError,
} from '@relvo-labs/agent-provider';
import { causeTokenOf } from '../shared/cause-token.js';
import type { CodexTransport } from '../transport/types.js';

export interface ReleaseSummary {
  readonly attempted: number;
  readonly released: number;
  readonly pending: number;
}

function handshakeCodeOf(error: unknown): string {
  if (isProviderRejection(error)) return error.agentError.providerCode ?? error.agentError.code;
  const inner = (error as { agentError?: AgentError } | null)?.agentError;
  if (inner !== undefined) return inner.providerCode ?? inner.code;
  return causeTokenOf(error);
}

export class AbandonedConnections {
  readonly #connections = new Set<CodexTransport>();
  #sweep: Promise<ReleaseSummary> | undefined;

  get count(): number {
    return this.#connections.size;
  }

  /**
   * Closes the half-open connection and returns the error `createSession` rejects with: the
   * handshake failure itself when the teardown succeeded, else `handshake_cleanup_pending`.
   */
  async tearDownAfterFailedHandshake(transport: CodexTransport, failure: unknown): Promise<Error> {
    try {
      await Promise.resolve();
      await transport.close();
    } catch (teardownError) {
      this.#connections.add(transport);
      const handshakeCode = handshakeCodeOf(failure);
      const teardown = causeTokenOf(teardownError);
      return new ProviderRejection(
        agentError(
          'provider_unavailable',
          'codex handshake failed and its connection could not be closed',
          {
            providerCode: 'handshake_cleanup_pending',
            details: { handshakeCode, teardown, abandonedConnections: this.#connections.size },
          },
        ),
        { cause: new AggregateError([failure, teardownError], 'handshake and teardown failed') },
      );
    }
    // torn down cleanly: nothing was applied, so the refusal is definite
    if (isProviderRejection(failure)) return failure;
    const inner = (failure as { agentError?: AgentError } | null)?.agentError;
    if (inner !== undefined) return new ProviderRejection(inner, { cause: failure });
    const token = causeTokenOf(failure);
    return new ProviderRejection(
      agentError('provider_unavailable', `codex handshake failed (${token})`),
    );
  }

  releaseAll(): Promise<ReleaseSummary> {
    if (this.#sweep !== undefined) return this.#sweep;
    const sweep = this.#releaseAll().finally(() => {
      this.#sweep = undefined;
    });
    this.#sweep = sweep;
    return sweep;
  }

  async #releaseAll(): Promise<ReleaseSummary> {
    await Promise.resolve();
    const targets = [...this.#connections];
    // a close() that throws synchronously must not stop the attempts on the others
    const results = await Promise.allSettled(
      targets.map((t) => Promise.resolve().then(() => t.close())),
    );
    let released = 0;
    results.forEach((result, i) => {
      const target = targets[i];
      if (result.status === 'fulfilled' && target !== undefined) {
        this.#connections.delete(target);
        released += 1;
      }
    });
    const pending = this.#connections.size;
    if (pending > 0) {
      throw new ProviderRejection(
        agentError('provider_unavailable', 'some abandoned codex connections could not be closed', {
          providerCode: 'abandoned_connection_pending',
          details: { attempted: targets.length, released, pending },
        }),
      );
    }
    return { attempted: targets.length, released, pending };
  }
}
