/** Codex recovery records as a host would hold them, for the replayed (recorded) sessions. */
import { WIRE_VERSION, type ProviderRecoveryRecord } from '@relvo-labs/agent-provider';
import { placeDigest } from '../../src/session/recovery.js';
import { WORKSPACE } from './provider-harness.js';

/** The CODEX_HOME the recorded sessions ran in. */
export const REPLAY_CODEX_HOME = '/home/replay/.codex';

/** The record's envelope around `opaque`; `over` replaces envelope members. */
export function codexRecord(
  opaque: Record<string, unknown>,
  over: Partial<ProviderRecoveryRecord> = {},
): ProviderRecoveryRecord {
  return {
    providerId: 'codex',
    providerVersion: '0.1.0',
    wireVersion: WIRE_VERSION,
    opaque,
    ...over,
  } as ProviderRecoveryRecord;
}

/** A thread record's opaque part, digests of the replayed home and workspace, then `over`. */
export function threadOpaque(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    format: 'codex-thread',
    version: 1,
    codexHome: placeDigest('codex-home', REPLAY_CODEX_HOME),
    workspace: placeDigest('workspace', WORKSPACE),
    ...over,
  };
}
