import { agentError, ProviderRejection, type InteractionRequest } from '@relvo-labs/agent-provider';
import { isRuntimeError, type EventEnvelope } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import {
  expectGapless,
  history,
  manualRuntime,
  scriptedRuntime,
  turnWithRun,
  types,
  until,
} from './support.js';

const approval: InteractionRequest = {
  kind: 'approval',
  subject: { category: 'command', summary: 'run ls' },
  allowedModes: ['once'],
  riskHint: 'medium',
};

function runStates(events: readonly EventEnvelope[]): string[] {
  return events.flatMap((e) => (e.payload.type === 'run.state_changed' ? [e.payload.to] : []));
}

describe('interactions', () => {
  it('answers a scripted approval: validated, delivered, settled durably, the run continues', async () => {
    const { runtime, scripted, session } = await scriptedRuntime({
      scripted: {
        scripts: {
          ask: [
            { type: 'ask', ref: 'a1', request: approval },
            { type: 'delta', text: 'after' },
            { type: 'succeed' },
          ],
        },
      },
    });
    const turn = await session.submitTurn({ input: 'ask' });
    scripted.controller.drain();
    const [pending] = session.pendingInteractions();
    expect(pending).toMatchObject({
      runId: turn.runId,
      turnId: turn.turnId,
      status: 'pending',
      request: approval,
    });
    await session.respond(pending!.interactionId, {
      kind: 'approval',
      decision: 'approved',
      mode: 'once',
    });
    // the settlement is in the store before respond resolved
    const stored = await history(runtime, session.id);
    expect(
      stored.filter((e) => e.payload.type === 'interaction.settled').at(-1)?.payload,
    ).toMatchObject({
      type: 'interaction.settled',
      settlement: { outcome: 'responded' },
    });
    // an exact retry is a no-op; a different answer is refused
    await session.respond(pending!.interactionId, {
      kind: 'approval',
      decision: 'approved',
      mode: 'once',
    });
    const conflicting = await session
      .respond(pending!.interactionId, { kind: 'approval', decision: 'denied' })
      .catch((e: unknown) => e);
    expect(isRuntimeError(conflicting) && conflicting.reason).toBe('interaction_settled');
    scripted.controller.drain();
    expect((await turn.done).turnState).toBe('completed');
    const events = await history(runtime, session.id);
    expectGapless(events);
    expect(runStates(events)).toEqual(['running', 'awaiting_interaction', 'running']);
    expect(types(events).filter((t) => t.startsWith('interaction'))).toEqual([
      'interaction.requested',
      'interaction.answered',
      'interaction.settled',
    ]);
  });

  it('a response that fails validation never reaches the provider and leaves the interaction answerable', async () => {
    const { manual, session, events } = await manualRuntime();
    const { run } = await turnWithRun(manual, session);
    await until(() => session.activeRunId !== undefined, 'active');
    run.sink.emit({
      payload: { type: 'interaction.requested', providerRef: 'p1', request: approval },
    });
    const [pending] = session.pendingInteractions();
    const invalid = [
      { kind: 'approval', decision: 'approved' }, // approved without a mode
      { kind: 'approval', decision: 'approved', mode: 'session' }, // mode outside allowedModes
      { kind: 'question', answer: 'yes' }, // wrong kind
      { kind: 'approval', decision: 'maybe' }, // does not parse
    ];
    for (const response of invalid) {
      const error = await session
        .respond(pending!.interactionId, response as never)
        .catch((e: unknown) => e);
      expect(isRuntimeError(error) && error.reason).toBe('response_invalid');
      expect(isRuntimeError(error) && error.code).toBe('invalid_request');
    }
    expect(manual.sessions[0]!.responses).toHaveLength(0);
    expect(session.pendingInteractions()).toHaveLength(1);
    expect((await events()).some((e) => e.payload.type === 'interaction.settled')).toBe(false);
    await session.respond(pending!.interactionId, { kind: 'approval', decision: 'denied' });
    expect(manual.sessions[0]!.responses).toEqual([
      { ref: 'p1', response: { kind: 'approval', decision: 'denied' } },
    ]);
  });

  it('interaction.withdrawn settles the interaction as withdrawn and the run leaves awaiting_interaction', async () => {
    const { manual, session, events } = await manualRuntime();
    const { turn, run } = await turnWithRun(manual, session);
    run.sink.emit({
      payload: { type: 'interaction.requested', providerRef: 'w1', request: approval },
    });
    const [pending] = session.pendingInteractions();
    run.sink.emit({ payload: { type: 'interaction.withdrawn', providerRef: 'w1' } });
    // a withdrawal of a ref never raised is disregarded
    run.sink.emit({ payload: { type: 'interaction.withdrawn', providerRef: 'never' } });
    expect(session.pendingInteractions()).toHaveLength(0);
    const late = await session
      .respond(pending!.interactionId, { kind: 'approval', decision: 'denied' })
      .catch((e: unknown) => e);
    expect(isRuntimeError(late) && late.reason).toBe('interaction_settled');
    expect(manual.sessions[0]!.responses).toHaveLength(0);
    run.sink.emit({ payload: { type: 'run.message_delta', text: 'still running' } });
    run.complete({ outcome: 'succeeded' });
    expect((await turn.done).turnState).toBe('completed');
    const all = await events();
    expect(runStates(all)).toEqual(['running', 'awaiting_interaction', 'running']);
    const settled = all.find((e) => e.payload.type === 'interaction.settled');
    expect(settled?.payload).toMatchObject({
      interactionId: pending!.interactionId,
      settlement: { outcome: 'withdrawn' },
    });
    expect(settled?.runId).toBe(turn.runId);
  });

  it('a run that ends settles its pending interactions (cancelled) before run.finished', async () => {
    const { manual, session, events } = await manualRuntime();
    const { turn, run } = await turnWithRun(manual, session);
    run.sink.emit({
      payload: {
        type: 'interaction.requested',
        providerRef: 'q',
        request: { kind: 'question', prompt: 'name?', multiSelect: false },
      },
    });
    const [asked] = session.pendingInteractions();
    run.complete({ outcome: 'failed', error: agentError('provider_unavailable', 'gone') });
    const result = await turn.done;
    expect(result.turnState).toBe('failed');
    expect(result.termination).toMatchObject({
      outcome: 'failed',
      error: { code: 'provider_unavailable' },
    });
    const tail = types(await events()).slice(-5);
    expect(tail).toEqual([
      'interaction.requested',
      'run.state_changed',
      'interaction.settled',
      'run.finished',
      'turn.settled',
    ]);
    // after the run ended the interaction is known as settled (cancelled), not unknown
    const late = await session
      .respond(asked!.interactionId, { kind: 'question', answer: 'x' })
      .catch((e: unknown) => e);
    expect(isRuntimeError(late) && [late.reason, late.error.details?.outcome]).toEqual([
      'interaction_settled',
      'cancelled',
    ]);
    // the sink is stale now: later emissions are discarded
    run.sink.emit({ payload: { type: 'run.message_delta', text: 'late' } });
    expect(types(await events()).at(-1)).toBe('turn.settled');
  });

  it('a provider rejection of a response is typed and keeps the interaction answerable; unknown outcome is retryable', async () => {
    const { manual, session } = await manualRuntime();
    await session.submitTurn({ input: 'x' });
    await until(() => manual.sessions[0]?.runs.length === 1, 'run started');
    manual.sessions[0]!.runs[0]!.sink.emit({
      payload: { type: 'interaction.requested', providerRef: 'r', request: approval },
    });
    const [pending] = session.pendingInteractions();
    manual.respondFailure = new ProviderRejection(agentError('provider_rejected', 'no'));
    const rejected = await session
      .respond(pending!.interactionId, { kind: 'approval', decision: 'denied' })
      .catch((e: unknown) => e);
    expect(isRuntimeError(rejected) && [rejected.reason, rejected.code]).toEqual([
      'provider_rejected',
      'provider_rejected',
    ]);
    manual.respondFailure = new Error('pipe broke: secret-upstream-text');
    const unknown = await session
      .respond(pending!.interactionId, { kind: 'approval', decision: 'denied' })
      .catch((e: unknown) => e);
    expect(isRuntimeError(unknown) && [unknown.reason, unknown.error.retryable]).toEqual([
      'provider_unknown_outcome',
      true,
    ]);
    expect(JSON.stringify(isRuntimeError(unknown) ? unknown.error : {})).not.toContain(
      'secret-upstream-text',
    );
    delete manual.respondFailure;
    await session.respond(pending!.interactionId, { kind: 'approval', decision: 'denied' });
    expect(session.pendingInteractions()).toHaveLength(0);
  });

  it('refuses an interaction request while the interrupt fence is up or after the run ended', async () => {
    const { manual, session, events } = await manualRuntime();
    const { turn, run } = await turnWithRun(manual, session);
    await session.interrupt('stop');
    run.sink.emit({
      payload: { type: 'interaction.requested', providerRef: 'late', request: approval },
    });
    expect((await turn.done).turnState).toBe('cancelled');
    expect(session.pendingInteractions()).toHaveLength(0);
    expect((await events()).some((e) => e.payload.type === 'interaction.requested')).toBe(false);
  });
});
