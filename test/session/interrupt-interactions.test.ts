import { describe, expect, it } from 'vitest';
import { SERVER_REQUEST_LEDGER_LIMIT } from '../../src/rpc/server-requests.js';
import {
  commandApproval,
  completed,
  push,
  replyError,
  startBound,
  THREAD,
  turns,
  openedHarness,
  interruptAcknowledged,
} from '../support/provider-frames.js';

const approval = (id: number, turnId = 't1') => commandApproval(id, { turnId });

function replyTo(
  sent: readonly Record<string, unknown>[],
  id: number,
): Record<string, unknown> | undefined {
  return sent.find((f) => f.id === id && !Object.hasOwn(f, 'method'));
}

describe('interrupt and interactions (docs/behaviour.md §7.1)', () => {
  it('initiating an interrupt synchronously answers the outstanding approval and refuses new ones', async () => {
    const { h, session } = await openedHarness({ approvals: 'bridge' });
    const { run, sink } = await startBound(h, session, 't1');
    await push(h.transport, approval(0));
    expect(sink.ofType('interaction.requested')).toHaveLength(1);
    expect(replyTo(h.transport.sent, 0)).toBeUndefined();

    const interrupting = run.interrupt().catch(() => undefined);
    // before any acknowledgement: the native request was released with a decline
    expect(replyTo(h.transport.sent, 0)).toEqual({ id: 0, result: { decision: 'decline' } });
    // a new approval for the interrupting run is not raised, and is answered so the turn cannot hang
    await push(h.transport, approval(1));
    expect(sink.ofType('interaction.requested')).toHaveLength(1);
    expect(replyTo(h.transport.sent, 1)).toHaveProperty('error');

    // a refused interrupt does not reopen the run to interactions
    await replyError(h.transport, 'turn/interrupt', -32603, 'busy');
    await interrupting;
    await push(h.transport, approval(2));
    expect(sink.ofType('interaction.requested')).toHaveLength(1);
    expect(replyTo(h.transport.sent, 2)).toHaveProperty('error');

    await interruptAcknowledged(h, run, { nth: 1 });
    await push(h.transport, completed('t1', 'interrupted'));
    expect((await run.completion).outcome).toBe('interrupted');
    await session.dispose();
  });

  it('disposal answers outstanding approvals (cancel: the turn ends) before the connection is released', async () => {
    const { h, session } = await openedHarness({ approvals: 'bridge' });
    const { run } = await startBound(h, session, 't1');
    await push(h.transport, approval(5));
    const disposing = session.dispose();
    expect(replyTo(h.transport.sent, 5)).toEqual({ id: 5, result: { decision: 'cancel' } });
    expect(h.transport.closeCalls).toBe(0);
    await disposing;
    expect(h.transport.closeCalls).toBe(1);
    expect(await run.completion).toMatchObject({ outcome: 'interrupted' });
  });

  it('the next run raises approvals again (the fence is per run)', async () => {
    const { h, session } = await openedHarness({ approvals: 'bridge' });
    const first = await startBound(h, session, 't1', 'a');
    await interruptAcknowledged(h, first.run);
    await push(h.transport, completed('t1', 'interrupted'));
    await first.run.completion;
    const second = await startBound(h, session, 't2', 'b', 1);
    await push(h.transport, approval(7, 't2'));
    expect(second.sink.ofType('interaction.requested')).toHaveLength(1);
    // an approval naming the finished turn is not raised on the new run
    await push(h.transport, approval(8, 't1'));
    expect(second.sink.ofType('interaction.requested')).toHaveLength(1);
    expect(replyTo(h.transport.sent, 8)).toHaveProperty('error');
    await session.dispose();
  });
});

describe('server-request ledger overflow', () => {
  it('the 4097th unique server request fences the session and fails the active run', async () => {
    const { h, session } = await openedHarness();
    const { run } = await startBound(h, session, 't1');
    const frames = Array.from({ length: SERVER_REQUEST_LEDGER_LIMIT + 1 }, (_, i) => ({
      id: i,
      method: 'item/tool/call',
      params: { threadId: THREAD, turnId: 't1', callId: `c${i}`, tool: 'x', arguments: {} },
    }));
    await push(h.transport, ...frames);
    await turns();
    expect(replyTo(h.transport.sent, SERVER_REQUEST_LEDGER_LIMIT)).toMatchObject({
      error: { code: -32600 },
    });
    expect(await run.completion).toMatchObject({
      outcome: 'failed',
      error: { code: 'provider_contract_violation' },
    });
    const fence = h.sessionSink
      .ofType('diagnostic')
      .filter((d) => d.detail?.['reason'] === 'server_request_ledger_overflow');
    expect(fence).toHaveLength(1);
    const refused = await session
      .startRun({
        input: { parts: [{ type: 'text', text: 'x' }] },
        sink: { emit: () => undefined },
        runRef: 'n',
      })
      .catch((e: unknown) => e);
    expect(JSON.stringify(refused)).toMatch(/session_fenced/);
    await session.dispose();
  });
});
