/**
 * Resume on the real binary (`persistence: 'thread'`, ADR-0016): a session disposed after a
 * turn is resumed in a new app-server process and the model's next request carries the earlier
 * conversation; the same workspace spelled differently resumes; a thread still open elsewhere is
 * refused with its own reason.
 */
import { isProviderRejection, type ProviderRecoveryRecord } from '@relvo-labs/agent-provider';
import { symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptedUsage, textStep } from '../../src/testing/index.js';
import { texts } from '../support/provider-harness.js';
import {
  openRealCodex,
  sessionInit,
  withUnknownThread,
  type RealCodex,
} from '../support/real-codex.js';
import * as turns from '../support/turns.js';

/** What resuming `record` in the same workspace rejects with (undefined when it resumed). */
function resumeRefusal(codex: RealCodex, record: ProviderRecoveryRecord): Promise<unknown> {
  return codex.provider.resumeSession!(record, sessionInit(codex.iso.workspace)).then(
    () => undefined,
    (e: unknown) => e,
  );
}

/** One turn on a persisted thread, then its recovery record. */
async function oneTurnAndExport(codex: RealCodex): Promise<ProviderRecoveryRecord> {
  codex.server.enqueue(textStep('Noted.', { usage: scriptedUsage(9, 2, 0, 0) }));
  await turns.ok(codex.session, 'remember', 'first');
  return codex.session.exportRecoveryRecord!();
}

describe('resume against the real binary', () => {
  it('export → dispose → resumeSession in a new process: the model gets the earlier conversation', async () => {
    const codex = await openRealCodex({ persistence: 'thread' });
    const secretWord = `PINEAPPLE-${Date.now()}`;
    codex.server.enqueue(
      textStep(['Noted', ' it.'], { usage: scriptedUsage(900, 5, 0, 0) }),
      textStep(['You said ', secretWord], { usage: scriptedUsage(950, 6, 0, 0) }),
    );
    await turns.ok(codex.session, `remember ${secretWord}`, 'first');
    const record = await codex.session.exportRecoveryRecord!();
    await codex.session.dispose();

    const resumed = await codex.provider.resumeSession!(record, sessionInit(codex.iso.workspace));
    try {
      const sink = await turns.ok(resumed, 'what did I say?', 'second');
      expect(texts(sink)).toBe(`You said ${secretWord}`);
      // the second model request holds the earlier user text and answer, then the new text
      const body = JSON.stringify(codex.server.requests[1]?.body);
      const earlier = body.indexOf(`remember ${secretWord}`);
      const answer = body.indexOf('Noted it.');
      const next = body.indexOf('what did I say?');
      expect(earlier).toBeGreaterThan(-1);
      expect(answer).toBeGreaterThan(earlier);
      expect(next).toBeGreaterThan(answer);
      // the replayed usage of the first process's turn was not attributed to this run
      expect(sink.ofType('run.usage').map((u) => u.usage.inputTokens)).toEqual([950]);
    } finally {
      await resumed.dispose();
    }
  });

  it('an unknown thread is refused with a typed error, never a fresh thread', async () => {
    const codex = await openRealCodex({ persistence: 'thread' });
    const record = await codex.session.exportRecoveryRecord!();
    const error = await resumeRefusal(codex, withUnknownThread(record));
    expect(isProviderRejection(error) && error.agentError).toMatchObject({
      code: 'invalid_request',
      providerCode: 'recovery_thread_unknown',
    });
  });

  it('a thread still open in another session: recovery_thread_open_elsewhere, never echoed', async () => {
    const codex = await openRealCodex({ persistence: 'thread' });
    // exported while the session that holds the thread is still open
    const record = await oneTurnAndExport(codex);
    const error = await resumeRefusal(codex, record);
    // retryable: the thread is free again once the session holding it is closed
    expect(isProviderRejection(error) && error.agentError).toMatchObject({
      code: 'provider_unavailable',
      retryable: true,
      providerCode: 'recovery_thread_open_elsewhere',
    });
    const threadId = (record.opaque as { threadId: string }).threadId;
    expect(JSON.stringify(error)).not.toContain(threadId);
    expect(JSON.stringify(error)).not.toContain('writer');
  });

  it('the workspace spelled differently (a symlink to it, a trailing slash) resumes the thread', async () => {
    const codex = await openRealCodex({ persistence: 'thread' });
    const record = await oneTurnAndExport(codex);
    await codex.session.dispose();
    const link = join(dirname(codex.iso.workspace), 'ws-link');
    symlinkSync(codex.iso.workspace, link);
    const resumed = await codex.provider.resumeSession!(record, sessionInit(`${link}/`));
    try {
      codex.server.enqueue(textStep('again', { usage: scriptedUsage(9, 2, 0, 0) }));
      const sink = await turns.ok(resumed, 'next', 'second');
      expect(texts(sink)).toBe('again');
      expect(JSON.stringify(codex.server.requests[1]?.body)).toContain('remember');
    } finally {
      await resumed.dispose();
    }
  });
});
