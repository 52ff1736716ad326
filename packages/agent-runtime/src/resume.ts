/**
 * What `runtime.resumeSession` checks before anything is opened (ADR-0036): the session was left
 * `ready` by a process that died, a provider recorded how to resume it, its workspace is still the
 * same directory, and each recorded profile still names a provider of the same id that resumes.
 * Whether the provider's own home still matches is the provider's to say, when it resumes.
 */
import { realpathSync, statSync } from 'node:fs';
import type { ProviderRecoveryRecord } from '@relvo-labs/agent-provider';
import type { RuntimeConfig } from './config.js';
import type { PayloadOf } from './envelope.js';
import { RuntimeError } from './errors.js';
import { readSessionHistory, type SessionHistory } from './history.js';
import { recordMacMatches } from './record-key.js';
import { settleAbandoned } from './recovery.js';
import type { EventWriter } from './session/writer.js';
import type { ProviderRegistry, ResolvedProvider } from './registry.js';
import type { EventStore, StoredSession } from './store/types.js';

export interface ResumePlan {
  readonly lastSequence: number;
  readonly opened: PayloadOf<'session.opened'>;
  readonly records: Map<string, ProviderRecoveryRecord>;
}

function notResumable(message: string, details = {}): RuntimeError {
  return new RuntimeError('session_closed', 'session_not_resumable', message, { details });
}

export function sameDirectory(root: string): boolean {
  try {
    return realpathSync(root) === root && statSync(root).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `profile` still names a provider of the record's id that can `use` the record. */
export function recordedProvider(
  registry: ProviderRegistry,
  config: RuntimeConfig,
  profile: string,
  record: ProviderRecoveryRecord,
  use: (resolved: ResolvedProvider) => boolean,
): boolean {
  const resolved = Object.hasOwn(config.profiles, profile) ? registry.resolve(profile) : undefined;
  return (
    resolved !== undefined && resolved.descriptor.providerId === record.providerId && use(resolved)
  );
}

export async function planResume(
  store: EventStore,
  registry: ProviderRegistry,
  config: RuntimeConfig,
  sessionId: string,
  recordKey: Buffer | undefined,
): Promise<ResumePlan> {
  const summary = await store.getSession(sessionId);
  if (summary === undefined) {
    throw new RuntimeError('unknown_session', 'unknown_session', 'no such session');
  }
  if (summary.state !== 'ready') {
    throw notResumable(`the session is ${summary.state}: only an open session resumes`, {
      state: summary.state,
    });
  }
  const history = await readSessionHistory(store, sessionId);
  if (history.opened === undefined || history.records.size === 0) {
    throw notResumable('no provider recorded how to resume this session');
  }
  verifyRecords(recordKey, sessionId, history.opened.workspace.root, history);
  if (!sameDirectory(history.opened.workspace.root)) {
    throw new RuntimeError(
      'workspace_unavailable',
      'resume_workspace_mismatch',
      'the session’s workspace is no longer the same directory',
    );
  }
  for (const [profile, record] of history.records) {
    const resumes = recordedProvider(
      registry,
      config,
      profile,
      record,
      (resolved) =>
        resolved.descriptor.recovery.resumesFromRecoveryRecord &&
        typeof resolved.provider.resumeSession === 'function',
    );
    if (!resumes) {
      throw new RuntimeError(
        'invalid_request',
        'resume_provider_mismatch',
        `profile "${profile}" no longer names a provider that resumes this session`,
        { details: { profile, recordedProvider: record.providerId } },
      );
    }
  }
  return { lastSequence: summary.lastSequence, opened: history.opened, records: history.records };
}

/** A dead owner's open work, read under this runtime's new lease and not yet settled. */
export interface PendingTakeover {
  readonly summary: StoredSession;
  readonly history: SessionHistory;
}

/**
 * On a shared store, a session this runtime did not settle at its start (its owner still held the
 * lease then) is taken over now, once that lease is free or lapsed; while a live runtime holds
 * it, `session_leased`. Nothing is written here for a session that resumes: its settlement is
 * returned, to be written only once its provider sessions have opened (a clean takeover,
 * ADR-0049). One that cannot resume (no recovery record) is settled failed at once. `settled`
 * remembers the sessions this runtime holds already.
 */
export async function takeOverToResume(
  store: EventStore,
  writer: EventWriter,
  settled: Set<string>,
  sessionId: string,
): Promise<PendingTakeover | undefined> {
  if (store.takeOver === undefined || settled.has(sessionId)) return undefined;
  const before = await store.getSession(sessionId);
  // unknown or closed: nothing to take over, and planResume says why it does not resume
  if (before === undefined || before.state !== 'ready') return undefined;
  if (!(await store.takeOver(sessionId))) {
    throw new RuntimeError(
      'store_unavailable',
      'session_leased',
      'another runtime holds the lease on this session: resume it once that runtime has ended and its lease lapsed',
    );
  }
  // read again under the lease: the previous owner may have appended until it lapsed
  const summary = await store.getSession(sessionId);
  if (summary === undefined || summary.state !== 'ready') return undefined;
  const history = await readSessionHistory(store, sessionId);
  if (history.records.size > 0) return { summary, history };
  await settleAbandoned(store, writer, summary);
  settled.add(sessionId);
  return undefined;
}

/**
 * What ends the log of a takeover that did not complete: what it numbered is dropped, so
 * readers that joined meanwhile stop, and the session is left to the next attempt.
 */
export function takeoverAbandoned(): RuntimeError {
  return new RuntimeError(
    'provider_unavailable',
    'takeover_abandoned',
    'the takeover did not complete: nothing was written and the session is free; resume it again',
  );
}

/**
 * Every record of the history carries the MAC the log's key gives it with this session and
 * workspace (ADR-0050): a record, or a workspace root, altered in the log is refused before any
 * provider sees it.
 */
export function verifyRecords(
  recordKey: Buffer | undefined,
  sessionId: string,
  workspaceRoot: string,
  history: SessionHistory,
): void {
  if (recordKey === undefined) {
    throw new RuntimeError(
      'invalid_request',
      'record_key_missing',
      "the event store has no record key: configure the log's key (recordKey or recordKeyFile) to resume or fork",
    );
  }
  for (const [profile, record] of history.records) {
    const mac = history.macs.get(profile);
    if (!recordMacMatches(recordKey, mac, sessionId, workspaceRoot, profile, record)) {
      throw new RuntimeError(
        'invalid_request',
        'record_unverified',
        "a recovery record does not verify under the log's key: it was altered, written under another key, or before records were keyed; start a new session",
        { details: { profile } },
      );
    }
  }
}
