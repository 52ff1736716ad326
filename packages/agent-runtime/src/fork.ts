/**
 * What `runtime.forkSession` checks before anything is opened (ADR-0041): the session is in the
 * store, a provider recorded how to continue it, its workspace is still the same directory, and
 * each recorded profile still names a provider of the same id that forks. The fork is a new
 * session: the source, open or not, is never changed.
 */
import type { ProviderRecoveryRecord } from '@relvo-labs/agent-provider';
import type { RuntimeConfig } from './config.js';
import type { PayloadOf } from './envelope.js';
import { RuntimeError } from './errors.js';
import { readSessionHistory } from './history.js';
import type { ProviderRegistry } from './registry.js';
import { recordedProvider, sameDirectory, verifyRecords } from './resume.js';
import type { EventStore } from './store/types.js';

export interface ForkPlan {
  readonly opened: PayloadOf<'session.opened'>;
  readonly records: Map<string, ProviderRecoveryRecord>;
}

export async function planFork(
  store: EventStore,
  registry: ProviderRegistry,
  config: RuntimeConfig,
  sessionId: string,
  recordKey: Buffer | undefined,
): Promise<ForkPlan> {
  const history = await readSessionHistory(store, sessionId);
  if (history.opened === undefined) {
    throw new RuntimeError('unknown_session', 'unknown_session', 'no such session');
  }
  if (history.records.size === 0) {
    throw new RuntimeError(
      'invalid_request',
      'session_not_forkable',
      'no provider recorded a session to fork',
    );
  }
  if (!sameDirectory(history.opened.workspace.root)) {
    throw new RuntimeError(
      'workspace_unavailable',
      'session_not_forkable',
      'the session’s workspace is no longer the same directory',
      { details: { workspace: 'changed' } },
    );
  }
  verifyRecords(recordKey, sessionId, history.opened.workspace.root, history);
  for (const [profile, record] of history.records) {
    const forks = recordedProvider(
      registry,
      config,
      profile,
      record,
      (resolved) =>
        resolved.descriptor.recovery.forksFromRecoveryRecord &&
        typeof resolved.provider.forkSession === 'function',
    );
    if (!forks) {
      throw new RuntimeError(
        'capability_unsupported',
        'fork_unsupported',
        `profile "${profile}" does not name a provider that forks this session`,
        { details: { profile, capability: 'recovery.forksFromRecoveryRecord' } },
      );
    }
  }
  return { opened: history.opened, records: history.records };
}
