import { isProviderRejection } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { CODEX_SERVER_REQUEST } from '../../src/protocol/wire-names.js';
import type { FakeTransport } from '../support/fake-transport.js';
import {
  createProviderHarness,
  recordingSink,
  textInput,
  type ProviderHarness,
} from '../support/provider-harness.js';
import {
  CANARY_PATH,
  CANARY_SECRET,
  completed,
  open,
  published,
  push,
  startBound,
  THREAD,
  turns,
  disposeWithTurnStartPending,
  openedHarness,
} from '../support/provider-frames.js';

/** A harness whose transport's close() fails (async or by a synchronous throw) `failures` times. */
function failingCloseHarness(
  failures: number,
  sync = false,
): ProviderHarness & { closeAttempts: () => number } {
  let left = failures;
  let attempts = 0;
  const harness = createProviderHarness({}, (transport) => ({
    close: () => {
      attempts += 1;
      if (left > 0) {
        left -= 1;
        const error = Object.assign(new Error(`kill failed ${CANARY_PATH}`), { code: 'EPERM' });
        if (sync) throw error;
        return Promise.reject(error);
      }
      return transport.close();
    },
  }));
  return { ...harness, closeAttempts: () => attempts };
}

async function pending(p: Promise<unknown>): Promise<boolean> {
  return Promise.race([p.then(() => false), turns(30).then(() => true)]);
}

describe('dispose', () => {
  it('concurrent calls share one close; later calls do nothing more', async () => {
    const { h, session } = await openedHarness();
    const a = session.dispose();
    const b = session.dispose();
    await Promise.all([a, b]);
    await session.dispose();
    expect(h.transport.closeCalls).toBe(1);
  });

  it('an in-flight run becomes interrupted with the disposal reason; no connection-ended diagnostic', async () => {
    const { h, session } = await openedHarness();
    const { run } = await startBound(h, session, 't1');
    await session.dispose();
    expect(await run.completion).toEqual({
      outcome: 'interrupted',
      reason: 'codex provider session disposed',
    });
    await turns();
    const diagnostics = h.sessionSink.ofType('diagnostic').map((d) => d.message);
    expect(diagnostics.filter((m) => /connection (ended|failed)/.test(m))).toEqual([]);
    // the stream end that disposal caused does not change the outcome
    expect(await run.completion).toMatchObject({ outcome: 'interrupted' });
  });

  for (const sync of [false, true]) {
    it(`a failed close (${sync ? 'synchronous throw' : 'rejection'}) rejects provider_rejected; a retry owns the teardown`, async () => {
      const h = failingCloseHarness(1, sync);
      const session = await open(h);
      const { run } = await startBound(h, session, 't1');
      const error: unknown = await session.dispose().catch((e: unknown) => e);
      expect(isProviderRejection(error)).toBe(true);
      if (!isProviderRejection(error)) throw new Error('unreachable');
      expect(error.agentError).toMatchObject({
        code: 'provider_rejected',
        details: { cause: 'EPERM' },
      });
      expect(published(error.agentError)).not.toContain(CANARY_PATH);
      // not disposed: admission stays closed, the admitted run stays unsettled
      expect(await pending(run.completion)).toBe(true);
      const refused: unknown = await session
        .startRun({ input: textInput('x'), sink: recordingSink(), runRef: 'n' })
        .catch((e: unknown) => e);
      expect(isProviderRejection(refused) && refused.agentError.code).toBe('session_closed');
      // the retry makes a fresh attempt, which succeeds
      await session.dispose();
      expect(h.closeAttempts()).toBe(2);
      expect(await run.completion).toEqual({
        outcome: 'interrupted',
        reason: 'codex provider session disposed',
      });
      await session.dispose();
      expect(h.closeAttempts()).toBe(2);
    });
  }

  it('concurrent callers of a failing attempt all see the failure, then one retry succeeds', async () => {
    const h = failingCloseHarness(1);
    const session = await open(h);
    const results = await Promise.allSettled([session.dispose(), session.dispose()]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(h.closeAttempts()).toBe(1);
    await session.dispose();
    expect(h.closeAttempts()).toBe(2);
  });
});

/** Pushes one server request per pinned method and returns the replies by id. */
async function everyPinnedRequest(
  transport: FakeTransport,
): Promise<Map<unknown, Record<string, unknown>>> {
  const frames = CODEX_SERVER_REQUEST.map((method, i) => ({
    id: 100 + i,
    method,
    params: {
      threadId: THREAD,
      turnId: 't1',
      itemId: `item-${i}`,
      reason: `please run ${CANARY_SECRET} in ${CANARY_PATH}`,
      command: `cat ${CANARY_PATH}`,
      cwd: CANARY_PATH,
    },
  }));
  await push(transport, ...frames);
  await turns();
  const replies = new Map<unknown, Record<string, unknown>>();
  for (const f of transport.sent) if (!Object.hasOwn(f, 'method')) replies.set(f.id, f);
  return replies;
}

describe('unbridged server requests', () => {
  it('with approvals and questions "none", every pinned method is answered -32601 on its own id', async () => {
    const { h, session } = await openedHarness();
    const { run, sink } = await startBound(h, session, 't1');
    const replies = await everyPinnedRequest(h.transport);
    CODEX_SERVER_REQUEST.forEach((_method, i) => {
      expect(replies.get(100 + i)).toMatchObject({ id: 100 + i, error: { code: -32601 } });
    });
    expect(replies.size).toBe(CODEX_SERVER_REQUEST.length);
    expect(sink.ofType('interaction.requested')).toHaveLength(0);
    // declines are diagnosed by pinned method name, never with payload
    const declined = h.sessionSink.ofType('diagnostic').filter((d) => /declined/.test(d.message));
    expect(declined).toHaveLength(CODEX_SERVER_REQUEST.length);
    const text = published(sink.events, h.sessionSink.events);
    expect(text).not.toContain(CANARY_SECRET);
    expect(text).not.toContain(CANARY_PATH);
    // the turn is not stalled
    await push(h.transport, completed('t1', 'completed'));
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    await session.dispose();
  });

  it('an unrecognised server request is declined -32601 and not named in the diagnostic', async () => {
    const { h, session } = await openedHarness();
    await push(h.transport, {
      id: 'x-1',
      method: `future/secretThing/${CANARY_SECRET}`,
      params: {},
    });
    await turns();
    expect(h.transport.sent.find((f) => f.id === 'x-1')).toMatchObject({ error: { code: -32601 } });
    expect(published(h.sessionSink.events)).not.toContain('future/secretThing');
    await session.dispose();
  });

  it('with both bridges on, every pinned method except the two bridged ones is still answered -32601', async () => {
    const { h, session } = await openedHarness({ approvals: 'bridge', questions: 'bridge' });
    await startBound(h, session, 't1');
    const replies = await everyPinnedRequest(h.transport);
    CODEX_SERVER_REQUEST.forEach((method, i) => {
      if (
        method === 'item/commandExecution/requestApproval' ||
        method === 'item/tool/requestUserInput'
      )
        return;
      expect(replies.get(100 + i), method).toMatchObject({ error: { code: -32601 } });
    });
    await session.dispose();
  });
});

/**
 * Like the stdio transport: close() stops the child, so stdout ends (and the client sees EOF)
 * before close() resolves. The plain fake resolves close() before its EOF is consumed.
 */
function eofBeforeCloseHarness(): ProviderHarness {
  let closing: Promise<void> | undefined;
  return createProviderHarness({}, (transport) => ({
    close: () => {
      closing ??= (async () => {
        transport.end();
        await transport.drained();
        await transport.close();
      })();
      return closing;
    },
  }));
}

describe('disposal with turn/start pending, when EOF precedes the end of close()', () => {
  it('the run ends interrupted with the disposal reason, never failed, and nothing is fenced', async () => {
    const h = eofBeforeCloseHarness();
    const session = await open(h);
    expect(await disposeWithTurnStartPending(h, session)).toEqual({
      outcome: 'interrupted',
      reason: 'codex provider session disposed',
    });
    expect(h.sessionSink.ofType('diagnostic').filter((d) => /fenced/.test(d.message))).toEqual([]);
  });
});
