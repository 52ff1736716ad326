/**
 * Resume on the real binary (`persistence: 'thread'`, ADR-0016): a session disposed after a
 * turn is resumed in a new app-server process and the model's next request carries the earlier
 * conversation.
 */
import { isProviderRejection, type ProviderRecoveryRecord } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { scriptedUsage, textStep } from '../../src/testing/index.js';
import { textInput, texts } from '../support/provider-harness.js';
import { openRealCodex, recordingSink, type RealCodex } from '../support/real-codex.js';

/** What resuming `record` in the same workspace rejects with (undefined when it resumed). */
function resumeRefusal(codex: RealCodex, record: ProviderRecoveryRecord): Promise<unknown> {
  return codex.provider.resumeSession!(record, {
    options: {},
    workspace: { root: codex.iso.workspace, ownership: 'borrowed' },
    sink: recordingSink(),
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('resume against the real binary', () => {
  it('export → dispose → resumeSession in a new process: the model gets the earlier conversation', async () => {
    const codex = await openRealCodex({ persistence: 'thread' });
    const secretWord = `PINEAPPLE-${Date.now()}`;
    codex.server.enqueue(
      textStep(['Noted', ' it.'], { usage: scriptedUsage(900, 5, 0, 0) }),
      textStep(['You said ', secretWord], { usage: scriptedUsage(950, 6, 0, 0) }),
    );
    const first = await codex.session.startRun({
      input: textInput(`remember ${secretWord}`),
      sink: recordingSink(),
      runRef: 'first',
    });
    expect(await first.completion).toEqual({ outcome: 'succeeded' });
    const record = await codex.session.exportRecoveryRecord!();
    await codex.session.dispose();

    const sessionSink = recordingSink();
    const resumed = await codex.provider.resumeSession!(record, {
      options: {},
      workspace: { root: codex.iso.workspace, ownership: 'borrowed' },
      sink: sessionSink,
    });
    try {
      const sink = recordingSink();
      const run = await resumed.startRun({
        input: textInput('what did I say?'),
        sink,
        runRef: 'second',
      });
      expect(await run.completion).toEqual({ outcome: 'succeeded' });
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
    const forged: ProviderRecoveryRecord = {
      ...record,
      opaque: {
        ...(record.opaque as Record<string, unknown>),
        threadId: '01a22fcf-0000-7000-8000-000000000000',
      },
    };
    const error = await resumeRefusal(codex, forged);
    expect(isProviderRejection(error) && error.agentError).toMatchObject({
      code: 'invalid_request',
      providerCode: 'recovery_thread_unknown',
    });
  });

  it('a thread still open in another session: recovery_thread_open_elsewhere, never echoed', async () => {
    const codex = await openRealCodex({ persistence: 'thread' });
    codex.server.enqueue(textStep('Noted.', { usage: scriptedUsage(9, 2, 0, 0) }));
    const run = await codex.session.startRun({
      input: textInput('remember'),
      sink: recordingSink(),
      runRef: 'first',
    });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    // exported while the session that holds the thread is still open
    const record = await codex.session.exportRecoveryRecord!();
    const error = await resumeRefusal(codex, record);
    expect(isProviderRejection(error) && error.agentError).toMatchObject({
      code: 'invalid_request',
      providerCode: 'recovery_thread_open_elsewhere',
    });
    const threadId = (record.opaque as { threadId: string }).threadId;
    expect(JSON.stringify(error)).not.toContain(threadId);
    expect(JSON.stringify(error)).not.toContain('writer');
  });
});
