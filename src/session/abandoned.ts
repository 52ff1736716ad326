/**
 * Connections a failed handshake could not tear down. No session exists for a caller to
 * dispose, so the provider keeps them and retries on request (attempt-all, never fail-fast).
 */
import { isProviderRejection, ProviderRejection } from '@relvo-labs/agent-provider';
import { agentErrorOf } from '../rpc/errors.js';
import { causeTokenOf } from '../shared/cause-token.js';
import { codexRejection } from '../shared/codex-error.js';
import { RetryableAttempt } from '../shared/retryable-attempt.js';

export interface ReleaseSummary {
  readonly attempted: number;
  readonly released: number;
  readonly pending: number;
}

/** What is kept: anything that can be closed (idempotent, retryable). */
export interface Closable {
  close(): Promise<void>;
}

function handshakeCodeOf(error: unknown): string {
  const inner = agentErrorOf(error);
  if (inner !== undefined) return inner.providerCode ?? inner.code;
  return causeTokenOf(error);
}

export class AbandonedConnections {
  readonly #connections = new Set<Closable>();
  /** Concurrent releases share one sweep; every later call sweeps again. */
  readonly #sweep = new RetryableAttempt<ReleaseSummary>({ once: false });

  get count(): number {
    return this.#connections.size;
  }

  /**
   * Closes the half-open connection and returns the error `createSession` rejects with: the
   * handshake failure itself when the teardown succeeded, else `handshake_cleanup_pending`.
   */
  async tearDownAfterFailedHandshake(connection: Closable, failure: unknown): Promise<Error> {
    try {
      await Promise.resolve();
      await connection.close();
    } catch (teardownError) {
      this.#connections.add(connection);
      const handshakeCode = handshakeCodeOf(failure);
      const teardown = causeTokenOf(teardownError);
      return codexRejection(
        'provider_unavailable',
        'codex handshake failed and its connection could not be closed',
        {
          providerCode: 'handshake_cleanup_pending',
          details: { handshakeCode, teardown, abandonedConnections: this.#connections.size },
        },
        { cause: new AggregateError([failure, teardownError], 'handshake and teardown failed') },
      );
    }
    // torn down cleanly: nothing was applied, so the refusal is definite
    if (isProviderRejection(failure)) return failure;
    const inner = agentErrorOf(failure);
    if (inner !== undefined) return new ProviderRejection(inner, { cause: failure });
    const token = causeTokenOf(failure);
    return codexRejection('provider_unavailable', `codex handshake failed (${token})`);
  }

  releaseAll(): Promise<ReleaseSummary> {
    return this.#sweep.run(() => this.#releaseAll());
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
      throw codexRejection(
        'provider_unavailable',
        'some abandoned codex connections could not be closed',
        {
          providerCode: 'abandoned_connection_pending',
          details: { attempted: targets.length, released, pending },
        },
      );
    }
    return { attempted: targets.length, released, pending };
  }
}
