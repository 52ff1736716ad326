/**
 * A runtime's shutdown, once its caller refuses new work: every session and the warm set close
 * within one grace, commands stop being carried out or waited for, the writer drains, and the
 * store closes. Retryable: a failed dispose throws before anything is stopped.
 */
import type { JsonObject } from '@relvo-labs/agent-provider';
import type { CommandRouter } from './commands/router.js';
import { isRuntimeError, RuntimeError } from './errors.js';
import type { EventWriter } from './session/writer.js';
import type { EventStore } from './store/types.js';

function isStoreFailure(value: unknown): value is RuntimeError {
  return isRuntimeError(value) && value.code === 'store_unavailable';
}

export interface ShutdownParts {
  closeAll(): Promise<void>[];
  closeWarm(): Promise<JsonObject[]>;
  readonly router: CommandRouter;
  readonly writer: EventWriter;
  readonly store: EventStore;
  readonly stopLeaseWatch: (() => void) | undefined;
  /** Waits for `work` at most the close grace. */
  bounded(work: Promise<void>): Promise<unknown>;
  /** The store is closed: nothing is left to retry, whatever is thrown after. */
  onStoreClosed(): void;
}

export async function shutDownRuntime(p: ShutdownParts): Promise<void> {
  // the warm set closes beside the sessions: one closeGraceMs bounds both
  const [warmFailures, results] = await Promise.all([
    p.closeWarm(),
    Promise.allSettled(p.closeAll()),
  ]);
  const failed = results.filter((r) => r.status === 'rejected');
  // a store failure is not retried away: the sessions are closed, only the log lost its tail
  const storeFailure = failed.map((r) => r.reason as unknown).find(isStoreFailure);
  if ((failed.length > 0 || warmFailures.length > 0) && storeFailure === undefined) {
    throw new RuntimeError(
      'provider_unavailable',
      'dispose_failed',
      'some sessions could not be closed; retry shutdown',
      { details: { failedSessions: failed.length, warmFailures } },
    );
  }
  p.router.stop();
  // a command being carried out ends with its session's close; bounded all the same, as a
  // provider that never answers must not hold shutdown
  await p.bounded(p.router.owner.idle());
  await p.writer.flushed().catch(() => undefined);
  p.stopLeaseWatch?.();
  await p.store.close();
  p.onStoreClosed();
  if (storeFailure !== undefined) throw storeFailure;
}
