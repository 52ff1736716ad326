/**
 * Effects after records: every host command that changes what the provider does (a steer, an
 * interrupt, a turn's start, close) is committed to the store before the provider sees it. The
 * store here holds the commit that carries the command's record until the test lets it go, so
 * "the provider has not seen it yet" is observed while the record is not durable; a store that
 * refuses that commit hands the provider nothing. Answers are answer-order.test.ts.
 */
import { isRuntimeError } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { gatedRuntime, runningTurn } from './gated-runtime.js';
import { history, settledAs, types, until } from './support.js';

describe('a host command is durable before the provider sees it', () => {
  it('steer: run.steered is committed before the provider run gets the input; refused by a failed store', async () => {
    const { runtime, session, hold, refuse, run } = await runningTurn();
    const gate = hold('run.steered');
    const steered = session.steer('and this');
    await gate.reached;
    expect(run.steers).toEqual([]);
    gate.release();
    await steered;
    expect(run.steers).toEqual([{ parts: [{ type: 'text', text: 'and this' }] }]);
    expect(types(await history(runtime, session.id))).toContain('run.steered');
    refuse('run.steered');
    const failed = await settledAs(session.steer('lost'));
    expect(isRuntimeError(failed) && failed.reason).toBe('store_io');
    expect(run.steers).toHaveLength(1);
  });

  it('interrupt: run.interrupt_requested is committed before the provider run is interrupted; refused by a failed store', async () => {
    const first = await runningTurn();
    const { run, turn } = first;
    const gate = first.hold('run.interrupt_requested');
    const interrupted = first.session.interrupt('stop');
    await gate.reached;
    expect(run.interrupts).toEqual([]);
    gate.release();
    await interrupted;
    expect(run.interrupts).toEqual(['stop']);
    await turn.done;
    const logged = types(await history(first.runtime, first.session.id));
    expect(logged.indexOf('run.interrupt_requested')).toBeGreaterThan(-1);
    expect(logged.indexOf('run.interrupt_requested')).toBeLessThan(logged.indexOf('run.finished'));

    const second = await runningTurn();
    second.refuse('run.interrupt_requested');
    const failed = await settledAs(second.session.interrupt('stop'));
    expect(isRuntimeError(failed) && failed.reason).toBe('store_io');
    expect(second.manual.sessions[0]!.runs[0]!.interrupts).toEqual([]);
  });

  it('submitTurn: the turn is committed before the provider starts the run; a store that refuses it starts nothing', async () => {
    const first = await gatedRuntime();
    const gate = first.hold('turn.started');
    const submitted = first.session.submitTurn({ input: 'x' });
    await gate.reached;
    // the provider session is open (it was opened before the turn), but no run started
    expect(first.manual.sessions[0]?.runs ?? []).toEqual([]);
    gate.release();
    const turn = await submitted;
    await until(() => first.manual.sessions[0]?.runs.length === 1, 'the run');
    expect(first.manual.sessions[0]!.runs[0]!.request.runRef).toBe(turn.runId);

    const second = await gatedRuntime();
    second.refuse('turn.started');
    const failed = await settledAs(second.session.submitTurn({ input: 'x' }));
    expect(isRuntimeError(failed) && failed.reason).toBe('store_io');
    expect(second.manual.sessions[0]?.runs ?? []).toEqual([]);
  });

  it('close: closing is committed before the provider is interrupted or disposed', async () => {
    const { manual, runtime, session, hold, run } = await runningTurn();
    const gate = hold('session.state_changed');
    const closed = session.close();
    await gate.reached;
    expect(run.interrupts).toEqual([]);
    expect(manual.sessions[0]!.disposeCalls).toBe(0);
    gate.release();
    await closed;
    expect(run.interrupts).toHaveLength(1);
    expect(manual.sessions[0]!.disposeCalls).toBe(1);
    const logged = types(await history(runtime, session.id));
    expect(logged.indexOf('session.state_changed')).toBeLessThan(
      logged.indexOf('run.interrupt_requested'),
    );
  });
});
