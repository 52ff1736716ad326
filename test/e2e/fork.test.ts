/**
 * Fork on the real binary (`persistence: 'thread'`, ADR-0041): `forkSession(record)` opens a new
 * session on a new persisted thread (`thread/fork`) that carries the record's turns; the source
 * session stays open and unchanged.
 */
import { isProviderRejection, type ProviderRecoveryRecord } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { scriptedUsage, textStep } from '../../src/testing/index.js';
import { texts } from '../support/provider-harness.js';
import {
  openRealCodex,
  sessionInit,
  UNKNOWN_THREAD_ID,
  withUnknownThread,
  type RealCodex,
} from '../support/real-codex.js';
import * as turns from '../support/turns.js';

function threadOf(record: ProviderRecoveryRecord): string {
  return (record.opaque as { threadId: string }).threadId;
}

function fork(codex: RealCodex, record: ProviderRecoveryRecord) {
  return codex.provider.forkSession!(record, sessionInit(codex.iso.workspace));
}

function inputOf(codex: RealCodex, index: number): string {
  return JSON.stringify((codex.server.requests[index]?.body as { input?: unknown }).input);
}

describe('fork against the real binary', () => {
  it('turn in A, fork to B, turn in B: B carries A’s turn; A does not get B’s', async () => {
    const codex = await openRealCodex({ persistence: 'thread' });
    codex.server.enqueue(
      textStep(['Noted', ' KIWI.'], { usage: scriptedUsage(900, 5, 0, 0) }),
      textStep('You said KIWI', { usage: scriptedUsage(950, 6, 0, 0) }),
      textStep('A again', { usage: scriptedUsage(990, 7, 0, 0) }),
    );
    await turns.ok(codex.session, 'remember KIWI', 'a1');
    const record = await codex.session.exportRecoveryRecord!();
    // the source stays open: codex forks a thread another session holds (measured on 0.171.0)
    const forked = await fork(codex, record);
    try {
      const forkedRecord = await forked.exportRecoveryRecord!();
      expect(threadOf(forkedRecord)).not.toBe(threadOf(record));
      const inB = await turns.ok(forked, 'what did I say?', 'b1');
      expect(texts(inB)).toBe('You said KIWI');
      const b = inputOf(codex, 1);
      expect(b.indexOf('remember KIWI')).toBeGreaterThan(-1);
      expect(b.indexOf('Noted KIWI.')).toBeGreaterThan(b.indexOf('remember KIWI'));
      expect(b.indexOf('what did I say?')).toBeGreaterThan(b.indexOf('Noted KIWI.'));
      // the fork's own usage only; nothing of A's turn is counted as B's run
      expect(inB.ofType('run.usage').map((u) => u.usage.inputTokens)).toEqual([950]);
      // A is unchanged: its next request has its own turn and not B's
      await turns.ok(codex.session, 'and in A?', 'a2');
      const a = inputOf(codex, 2);
      expect(a).toContain('remember KIWI');
      expect(a).not.toContain('what did I say?');
      expect(a).not.toContain('You said KIWI');
    } finally {
      await forked.dispose();
    }
  });

  it('an unknown thread or a foreign record is refused typed, never a fresh thread', async () => {
    const codex = await openRealCodex({ persistence: 'thread' });
    const record = await codex.session.exportRecoveryRecord!();
    const unknown = await fork(codex, withUnknownThread(record)).catch((e: unknown) => e);
    expect(isProviderRejection(unknown) && unknown.agentError).toMatchObject({
      code: 'invalid_request',
      providerCode: 'recovery_thread_unknown',
    });
    expect(JSON.stringify(unknown)).not.toContain(UNKNOWN_THREAD_ID.slice(0, 8));
    const foreign = await fork(codex, { ...record, providerId: 'other' }).catch((e: unknown) => e);
    expect(isProviderRejection(foreign) && foreign.agentError.providerCode).toBe(
      'recovery_record_foreign',
    );
    expect(codex.server.requests).toHaveLength(0);
  });
});
