import { agentError, ProviderRejection } from '@relvo-labs/agent-provider';
import { isRuntimeError, type EventEnvelope } from '@relvo-labs/agent-runtime';
import { STAGED_EMISSIONS_LIMIT } from '../src/session/run.js';
import { describe, expect, it } from 'vitest';
import {
  expectGapless,
  history,
  scriptedRuntime,
  tempDir,
  types,
  until,
  manualRuntime,
} from './support.js';

const payloadsOf = (events: readonly EventEnvelope[], type: string) =>
  events.filter((e) => e.payload.type === type);

describe('runs', () => {
  it('records the SPI run machine: started → running → interrupting → interrupted, turn cancelled', async () => {
    const { scripted, session, runtime } = await scriptedRuntime({
      scripted: {
        scripts: { long: [{ type: 'ask', ref: 'q', request: { kind: 'question', prompt: 'p' } }] },
      },
    });
    const turn = await session.submitTurn({ input: 'long' });
    scripted.controller.drain();
    await session.interrupt('user pressed stop');
    const result = await turn.done;
    expect(result.turnState).toBe('cancelled');
    expect(result.termination).toMatchObject({ outcome: 'interrupted' });
    expect(scripted.controller.interruptedRuns).toEqual([
      { runRef: turn.runId, reason: 'user pressed stop' },
    ]);
    const events = await history(runtime, session.id);
    expect(
      events
        .filter((e) => e.payload.type === 'run.state_changed')
        .map((e) => e.payload.type === 'run.state_changed' && e.payload.to),
    ).toEqual(['running', 'awaiting_interaction', 'interrupting']);
    expect(session.activeRunId).toBeUndefined();
    const noRun = await session.interrupt().catch((e: unknown) => e);
    expect(isRuntimeError(noRun) && noRun.reason).toBe('no_active_run');
  });

  it('rolls the interrupt fence back when the provider refuses the interrupt', async () => {
    const { manual, session, events } = await manualRuntime();
    const turn = await session.submitTurn({ input: 'x' });
    await until(() => manual.sessions[0]?.runs.length === 1, 'run');
    manual.interruptFailure = new ProviderRejection(agentError('capability_unsupported', 'no'));
    const refused = await session.interrupt().catch((e: unknown) => e);
    expect(isRuntimeError(refused) && refused.reason).toBe('provider_rejected');
    // fence rolled back: an interaction request is accepted again
    manual.sessions[0]!.runs[0]!.sink.emit({
      payload: {
        type: 'interaction.requested',
        providerRef: 'a',
        request: { kind: 'question', prompt: 'p', multiSelect: false },
      },
    });
    expect(session.pendingInteractions()).toHaveLength(1);
    delete manual.interruptFailure;
    manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    expect((await turn.done).turnState).toBe('completed');
    expect(
      payloadsOf(await events(), 'run.state_changed').map(
        (e) => e.payload.type === 'run.state_changed' && e.payload.to,
      ),
    ).toEqual(['running', 'awaiting_interaction', 'running']);
  });

  it('stages emissions made before the run is active (256) and drains them after it starts', async () => {
    const { manual, session, events } = await manualRuntime();
    manual.onStartRun = (sink) => {
      for (let i = 0; i < STAGED_EMISSIONS_LIMIT + 3; i += 1)
        sink.emit({ payload: { type: 'run.message_delta', text: `d${i}` } });
    };
    const turn = await session.submitTurn({ input: 'x' });
    await until(() => manual.sessions[0]?.runs.length === 1, 'run');
    manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    await turn.done;
    const all = await events();
    expectGapless(all);
    const kinds = types(all);
    const runningAt = all.findIndex((e) => e.payload.type === 'run.state_changed');
    expect(kinds.indexOf('run.started')).toBeLessThan(runningAt);
    const deltas = payloadsOf(all, 'run.message_delta');
    expect(deltas).toHaveLength(STAGED_EMISSIONS_LIMIT);
    expect(deltas[0]!.sequence).toBe(all[runningAt]!.sequence + 1);
    expect(deltas.every((d) => d.runId === turn.runId)).toBe(true);
    const overflow = payloadsOf(all, 'diagnostic').at(-1);
    expect(overflow?.payload).toMatchObject({
      level: 'warning',
      detail: { code: 'staging_overflow', rejected: 3 },
    });
  });

  it('turns an invalid or hostile emission into a contract-violation diagnostic; the sink never throws', async () => {
    const { manual, session, events } = await manualRuntime();
    const turn = await session.submitTurn({ input: 'x' });
    await until(() => manual.sessions[0]?.runs.length === 1, 'run');
    const sink = manual.sessions[0]!.runs[0]!.sink;
    const cyclic: Record<string, unknown> = {
      type: 'run.tool_activity',
      toolName: 't',
      phase: 'invoked',
    };
    cyclic.detail = cyclic;
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('boom');
        },
      },
    );
    const bad: unknown[] = [
      { payload: { type: 'run.message_delta', text: '' } },
      { payload: { type: 'run.finished' } },
      { payload: { type: 'run.message_delta', text: 'x' }, sequence: 3 },
      { payload: cyclic },
      hostile,
      null,
    ];
    for (const input of bad)
      expect(() => {
        sink.emit(input as never);
      }).not.toThrow();
    sink.emit({ payload: { type: 'run.message_delta', text: 'fine' } });
    manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    await turn.done;
    const all = await events();
    const violations = payloadsOf(all, 'diagnostic').filter(
      (e) =>
        e.payload.type === 'diagnostic' && e.payload.detail?.code === 'provider_contract_violation',
    );
    expect(violations).toHaveLength(bad.length);
    expect(payloadsOf(all, 'run.message_delta')).toHaveLength(1);
  });

  it('records a completion that rejects or does not parse as a failed run (provider_contract_violation)', async () => {
    const { manual, session } = await manualRuntime();
    const turn = await session.submitTurn({ input: 'x' });
    await until(() => manual.sessions[0]?.runs.length === 1, 'run');
    manual.sessions[0]!.runs[0]!.complete({ outcome: 'exploded' } as never);
    const result = await turn.done;
    expect(result.termination).toMatchObject({
      outcome: 'failed',
      error: { code: 'provider_contract_violation' },
    });
  });
});

describe('close and shutdown', () => {
  it('close disposes every provider session of the session and is retryable after a failing dispose', async () => {
    const { manual, session, events } = await manualRuntime();
    for (const profile of ['m', 'n']) {
      const turn = await session.submitTurn({ input: 'x', profile });
      await until(
        () => manual.sessions.flatMap((s) => s.runs).length === (profile === 'm' ? 1 : 2),
        'run',
      );
      manual.sessions.at(-1)!.runs[0]!.complete({ outcome: 'succeeded' });
      await turn.done;
    }
    expect(manual.sessions).toHaveLength(2);
    manual.failDisposals = 1;
    const first = await session.close().catch((e: unknown) => e);
    expect(isRuntimeError(first) && [first.reason, first.error.retryable]).toEqual([
      'dispose_failed',
      true,
    ]);
    expect(session.state).toBe('closing');
    expect(
      (await session.submitTurn({ input: 'x' }).catch((e: unknown) => e)) instanceof Error,
    ).toBe(true);
    await session.close();
    expect(session.state).toBe('closed');
    // the session that disposed fine the first time is not disposed again
    expect(manual.sessions.map((s) => s.disposeCalls).sort()).toEqual([1, 2]);
    const all = await events();
    expectGapless(all);
    expect(types(all).slice(-2)).toEqual(['session.state_changed', 'session.closed']);
    expect(all.at(-1)?.payload).toEqual({ type: 'session.closed', reason: 'requested' });
    await session.close(); // idempotent
  });

  it('close interrupts the active run first and settles it', async () => {
    const { manual, session } = await manualRuntime();
    const turn = await session.submitTurn({ input: 'x' });
    await until(() => manual.sessions[0]?.runs.length === 1, 'run');
    await session.close();
    expect(manual.sessions[0]!.runs[0]!.interrupts).toEqual(['session closing']);
    expect((await turn.done).turnState).toBe('cancelled');
  });

  it('shutdown closes every session, refuses new work and is memoised', async () => {
    const { manual, runtime, session } = await manualRuntime();
    const other = await runtime.openSession({ workspace: tempDir() });
    await session.submitTurn({ input: 'x' });
    await until(() => manual.sessions.length === 1, 'provider session');
    await Promise.all([runtime.shutdown(), runtime.shutdown()]);
    expect([session.state, other.state]).toEqual(['closed', 'closed']);
    const refused = await runtime.openSession({ workspace: tempDir() }).catch((e: unknown) => e);
    expect(isRuntimeError(refused) && refused.reason).toBe('runtime_shut_down');
    await runtime.shutdown();
  });
});
