import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isProviderRejection, type ProviderSession } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { createCodexProvider } from '../../src/index.js';
import { testEnv } from '../support/processes.js';
import { createProviderHarness, recordingSink, textInput } from '../support/provider-harness.js';
import {
  CANARY_PATH,
  CANARY_SECRET,
  commandApproval,
  completed,
  midTurnError,
  published,
  push,
  replyError,
  reply,
  startBound,
  THREAD,
  turns,
  openedHarness,
  UNCLASSIFIED_FAILURE,
} from '../support/provider-frames.js';
import { BASELINE, userAgentOf } from '../support/releases.js';

const prose = `could not open ${CANARY_PATH} using ${CANARY_SECRET}`;

function expectClean(text: string): void {
  expect(text).not.toContain(CANARY_SECRET);
  expect(text).not.toContain('CANARYCANARY');
  expect(text).not.toContain(CANARY_PATH);
  expect(text).not.toContain('secret-canary');
}

function approvalRequest(id: number, turnId: string): Record<string, unknown> {
  return commandApproval(id, {
    turnId,
    itemId: 'call_exec_1',
    reason: `wants to use ${CANARY_SECRET}`,
    command: `/bin/bash -lc 'curl -H "Authorization: Bearer ${CANARY_SECRET}" x'`,
    cwd: CANARY_PATH,
    commandActions: [{ type: 'unknown', command: `echo ${CANARY_SECRET}` }],
  });
}

describe('canaries in upstream text (fake transport)', () => {
  it('error replies, turn errors, mid-turn errors and declined requests publish no canary', async () => {
    const { h, session } = await openedHarness();
    const errors: unknown[] = [];
    // a refused turn/start
    const refused = session
      .startRun({ input: textInput('x'), sink: recordingSink(), runRef: 'a' })
      .catch((e: unknown) => e);
    await replyError(h.transport, 'turn/start', -32602, prose);
    errors.push(await refused);
    // a run with a refused interrupt, a mid-turn error, a declined request and a failed turn
    const { run, sink } = await startBound(h, session, 't1', 'b', 1);
    const interrupting = run.interrupt(prose).catch((e: unknown) => e);
    await replyError(h.transport, 'turn/interrupt', -32603, prose);
    errors.push(await interrupting);
    await push(
      h.transport,
      midTurnError('t1', { [prose]: {} }, true, prose),
      {
        id: 9,
        method: 'item/permissions/requestApproval',
        params: { threadId: THREAD, turnId: 't1', reason: prose },
      },
      completed('t1', 'failed', {
        message: prose,
        codexErrorInfo: prose,
        additionalDetails: prose,
      }),
    );
    const termination = await run.completion;
    expect(termination).toMatchObject({
      outcome: 'failed',
      error: { providerCode: 'other', details: { classification: 'unclassified' } },
    });
    for (const e of errors) expect(isProviderRejection(e)).toBe(true);
    expectClean(
      published(
        errors.map((e) => (isProviderRejection(e) ? e.agentError : e)),
        termination,
        sink.events,
        h.sessionSink.events,
      ),
    );
    await session.dispose();
  });

  it('a thread/start error reply during the handshake publishes no canary', async () => {
    const h = createProviderHarness();
    const opening = h.openSession().catch((e: unknown) => e);
    await reply(h.transport, 'initialize', {
      userAgent: userAgentOf(BASELINE),
    });
    await replyError(h.transport, 'thread/start', -32600, prose);
    const error = await opening;
    expect(isProviderRejection(error) && error.agentError).toMatchObject({
      code: 'provider_rejected',
      providerCode: 'invalid_request',
    });
    expectClean(
      published(isProviderRejection(error) ? error.agentError : error, h.sessionSink.events),
    );
  });

  it('approval text with approvals "none": declined, nothing published', async () => {
    const { h, session } = await openedHarness();
    const { sink } = await startBound(h, session, 't1');
    await push(h.transport, approvalRequest(0, 't1'));
    await turns();
    expect(h.transport.sent.find((f) => f.id === 0 && !('method' in f))).toMatchObject({
      error: { code: -32601 },
    });
    expectClean(published(sink.events, h.sessionSink.events));
    await session.dispose();
  });

  it('approval text with approvals "bridge": credential shapes are redacted from the published subject', async () => {
    const { h, session } = await openedHarness({ approvals: 'bridge' });
    const { sink } = await startBound(h, session, 't1');
    await push(h.transport, approvalRequest(0, 't1'));
    await turns();
    const raised = sink.ofType('interaction.requested');
    expect(raised).toHaveLength(1);
    const text = published(sink.events, h.sessionSink.events);
    expect(text).not.toContain(CANARY_SECRET);
    expect(text).toContain('[redacted]');
    // the cwd is published by design (docs/behaviour.md §10.5), and only inside the approval subject
    expect(published(h.sessionSink.events)).not.toContain(CANARY_PATH);
    await session.dispose();
  });
});

const leakyServer = fileURLToPath(
  new URL('../support/stand-ins/leaky-app-server.cjs', import.meta.url),
);

describe('canaries through the stdio transport', () => {
  it('stderr and upstream prose of a real child process never reach events, errors or diagnostics', async () => {
    const root = mkdtempSync(join(tmpdir(), 'codex-canary-'));
    const provider = createCodexProvider({
      executable: process.execPath,
      extraArgs: [leakyServer],
      env: testEnv({ CANARY_SECRET, CANARY_PATH, STAND_IN_VERSION: BASELINE }),
    });
    const sessionSink = recordingSink();
    let session: ProviderSession | undefined;
    try {
      session = await provider.createSession({
        options: {},
        workspace: { root, ownership: 'borrowed' },
        sink: sessionSink,
      });
      const sink = recordingSink();
      const run = await session.startRun({ input: textInput('go'), sink, runRef: 'r' });
      const termination = await run.completion;
      expect(termination).toMatchObject(UNCLASSIFIED_FAILURE);
      // the mid-turn error and the declined request were seen, as tokens only
      expect(
        sink.ofType('diagnostic').some((d) => d.detail?.['classification'] === 'unauthorized'),
      ).toBe(true);
      await session.dispose();
      session = undefined;
      expectClean(published(termination, sink.events, sessionSink.events));
      expect(published(sink.events, sessionSink.events)).not.toContain(root);
    } finally {
      await session?.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a failed handshake over stdio (unsupported method reply) publishes no canary', async () => {
    const root = mkdtempSync(join(tmpdir(), 'codex-canary-'));
    const provider = createCodexProvider({
      executable: process.execPath,
      extraArgs: [leakyServer],
      env: testEnv({ CANARY_SECRET, CANARY_PATH }),
      clientName: 'other_client',
    });
    try {
      const error: unknown = await provider
        .createSession({
          options: {},
          workspace: { root, ownership: 'borrowed' },
          sink: recordingSink(),
        })
        .catch((e: unknown) => e);
      expect(isProviderRejection(error) && error.agentError.providerCode).toBe(
        'unsupported_app_server_version',
      );
      expect(provider.abandonedConnectionCount).toBe(0);
      expectClean(published(isProviderRejection(error) ? error.agentError : error));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
