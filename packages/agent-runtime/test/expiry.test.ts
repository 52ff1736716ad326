import type { InteractionRequest } from '@relvo-labs/agent-provider';
import { isRuntimeError, type EventEnvelope, type RuntimeProfile } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { FakeClock } from './fake-clock.js';
import { createManualProvider } from './manual-provider.js';
import { history, runtimeOnManual, settlesWithin, tempDir, turnWithRun, until } from './support.js';

const APPROVAL: InteractionRequest = {
  kind: 'approval',
  subject: { category: 'command', summary: 'run ls' },
  allowedModes: ['once'],
  riskHint: 'medium',
};
const QUESTION: InteractionRequest = {
  kind: 'question',
  prompt: 'which?',
  multiSelect: false,
};
const AFTER_MS = 60_000;

async function setup(expiry?: RuntimeProfile['interactionExpiry']) {
  const clock = new FakeClock();
  const manual = createManualProvider();
  const runtime = await runtimeOnManual(manual.provider, {
    config: {
      defaultProfile: 'm',
      profiles: {
        m: { provider: 'manual', ...(expiry === undefined ? {} : { interactionExpiry: expiry }) },
      },
    },
    clock,
  });
  const session = await runtime.openSession({ workspace: tempDir() });
  const { turn, run } = await turnWithRun(manual, session);
  const ask = (request: InteractionRequest, ref = 'r1'): void => {
    run.sink.emit({ payload: { type: 'interaction.requested', providerRef: ref, request } });
  };
  return { clock, manual, runtime, session, turn, run, ask };
}

const settled = (events: readonly EventEnvelope[]) =>
  events.flatMap((e) => (e.payload.type === 'interaction.settled' ? [e.payload.settlement] : []));

describe('interaction expiry by profile policy', () => {
  it('decline: an unanswered approval expires at its deadline, is denied to the provider and recorded expired', async () => {
    const { clock, manual, runtime, session, turn, run, ask } = await setup({
      afterMs: AFTER_MS,
      onExpiry: 'decline',
    });
    const askedAt = clock.now();
    ask(APPROVAL);
    const [pending] = session.pendingInteractions();
    expect(pending?.expiresAt).toBe(new Date(askedAt + AFTER_MS).toISOString());
    clock.advance(AFTER_MS - 1);
    expect(session.pendingInteractions()).toHaveLength(1);
    clock.advance(1);
    expect(session.pendingInteractions()).toHaveLength(0);
    await until(() => manual.sessions[0]!.responses.length === 1, 'the denial');
    expect(manual.sessions[0]!.responses[0]).toEqual({
      ref: 'r1',
      response: { kind: 'approval', decision: 'denied' },
    });
    const late = await session
      .respond(pending!.interactionId, { kind: 'approval', decision: 'approved', mode: 'once' })
      .catch((e: unknown) => e);
    expect(isRuntimeError(late) && late.code).toBe('interaction_expired');
    run.complete({ outcome: 'succeeded' });
    expect((await settlesWithin(turn.done, 'done')).turnState).toBe('completed');
    const events = await history(runtime, session.id);
    const requested = events.find((e) => e.payload.type === 'interaction.requested')?.payload;
    expect(requested).toMatchObject({ expiresAt: pending?.expiresAt });
    expect(settled(events)).toEqual([
      {
        outcome: 'expired',
        settledAt: new Date(askedAt + AFTER_MS).toISOString(),
        error: expect.objectContaining({
          code: 'interaction_expired',
          details: { reason: 'interaction_expired', action: 'declined', afterMs: AFTER_MS },
        }) as unknown,
      },
    ]);
  });

  it('cancel (and a question under decline): expiry interrupts the run; the turn is cancelled', async () => {
    for (const [onExpiry, request] of [
      ['cancel', APPROVAL],
      ['decline', QUESTION],
    ] as const) {
      const { clock, runtime, session, turn, run, ask } = await setup({
        afterMs: AFTER_MS,
        onExpiry,
      });
      ask(request);
      clock.advance(AFTER_MS);
      const result = await settlesWithin(turn.done, 'done');
      expect(result.turnState).toBe('cancelled');
      expect(run.interrupts).toEqual(['interaction expired']);
      const [settlement] = settled(await history(runtime, session.id));
      expect(settlement).toMatchObject({
        outcome: 'expired',
        error: { details: { action: 'cancelled' } },
      });
    }
  });

  it('an answer in flight at the deadline wins; if its delivery fails, the request expires', async () => {
    const { clock, manual, session, ask } = await setup({ afterMs: AFTER_MS, onExpiry: 'decline' });
    ask(APPROVAL);
    const [pending] = session.pendingInteractions();
    manual.respondFailure = new Error('connection lost');
    const answering = session
      .respond(pending!.interactionId, { kind: 'approval', decision: 'approved', mode: 'once' })
      .catch((e: unknown) => e);
    clock.advance(AFTER_MS);
    const failed = await answering;
    expect(isRuntimeError(failed) && failed.reason).toBe('provider_unknown_outcome');
    await until(() => session.pendingInteractions().length === 0, 'the overdue request expiring');
    const late = await session
      .respond(pending!.interactionId, { kind: 'approval', decision: 'denied' })
      .catch((e: unknown) => e);
    expect(isRuntimeError(late) && late.code).toBe('interaction_expired');
  });

  it('an answer in time disarms the deadline; without a policy nothing expires', async () => {
    const timed = await setup({ afterMs: AFTER_MS, onExpiry: 'decline' });
    timed.ask(APPROVAL);
    expect(timed.clock.pending).toBe(1);
    const [pending] = timed.session.pendingInteractions();
    await timed.session.respond(pending!.interactionId, { kind: 'approval', decision: 'denied' });
    expect(timed.clock.pending).toBe(0);

    const open = await setup();
    open.ask(APPROVAL);
    expect(open.clock.pending).toBe(0);
    open.clock.advance(365 * 24 * 3_600_000);
    const [waiting] = open.session.pendingInteractions();
    expect(waiting?.expiresAt).toBeUndefined();
    expect(waiting?.status).toBe('pending');
  });
});
