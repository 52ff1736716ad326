/**
 * Effects after records, for answers: an answer to a pending interaction is committed to the
 * store before the provider gets it, one the store cannot record never reaches the provider, and
 * one whose run ends while it is recorded, or whose delivery fails, settles the interaction
 * without delivering it twice.
 */
import { agentError, ProviderRejection } from '@relvo-labs/agent-provider';
import { isRuntimeError } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { awaitingApproval } from './gated-runtime.js';
import { history, settledAs, until } from './support.js';

describe('a host answer is durable before the provider sees it', () => {
  it('an answer: recorded and committed first; an exact retry joins, another answer is refused; settled after', async () => {
    const { manual, runtime, session, hold, interactionId } = await awaitingApproval();
    const gate = hold('interaction.answered');
    const answer = {
      kind: 'approval' as const,
      decision: 'approved' as const,
      mode: 'once' as const,
    };
    const answered = session.respond(interactionId, answer);
    await gate.reached;
    const retry = session.respond(interactionId, { ...answer });
    const other = await settledAs(
      session.respond(interactionId, { kind: 'approval', decision: 'denied' }),
    );
    expect(isRuntimeError(other) && other.reason).toBe('interaction_settled');
    // the record is not durable: the provider has nothing
    expect(manual.sessions[0]!.responses).toEqual([]);
    gate.release();
    await answered;
    await retry;
    expect(manual.sessions[0]!.responses).toEqual([{ ref: 'a1', response: answer }]);
    const logged = (await history(runtime, session.id)).filter((e) =>
      e.payload.type.startsWith('interaction.'),
    );
    expect(logged.map((e) => e.payload)).toEqual([
      expect.objectContaining({ type: 'interaction.requested', interactionId }),
      { type: 'interaction.answered', interactionId, response: answer },
      expect.objectContaining({
        type: 'interaction.settled',
        settlement: expect.objectContaining({ outcome: 'responded', response: answer }),
      }),
    ]);
    expect(logged[2]?.payload).not.toHaveProperty('settlement.error');
  });

  it('an answer the store cannot record never reaches the provider; the caller gets store_io', async () => {
    const { manual, session, refuse, interactionId } = await awaitingApproval();
    refuse('interaction.answered');
    const failed = await settledAs(
      session.respond(interactionId, { kind: 'approval', decision: 'approved', mode: 'once' }),
    );
    expect(isRuntimeError(failed) && failed.reason).toBe('store_io');
    expect(manual.sessions[0]!.responses).toEqual([]);
    // a retry does not reach it either
    const again = await settledAs(
      session.respond(interactionId, { kind: 'approval', decision: 'approved', mode: 'once' }),
    );
    expect(isRuntimeError(again) && again.reason).toBe('store_io');
    expect(manual.sessions[0]!.responses).toEqual([]);
  });

  it('a run that ends while its answer is being recorded: the answer is never delivered and the approval settles cancelled', async () => {
    const { manual, runtime, session, hold, run, turn, interactionId } = await awaitingApproval();
    const gate = hold('interaction.answered');
    const answered = settledAs(
      session.respond(interactionId, { kind: 'approval', decision: 'approved', mode: 'once' }),
    );
    await gate.reached;
    run.complete({ outcome: 'succeeded' });
    await until(() => session.activeRunId === undefined, 'the run end');
    gate.release();
    const refused = await answered;
    expect(isRuntimeError(refused) && refused.reason).toBe('interaction_settled');
    await turn.done;
    expect(manual.sessions[0]!.responses).toEqual([]);
    const settled = (await history(runtime, session.id)).find(
      (e) => e.payload.type === 'interaction.settled',
    );
    expect(settled?.payload).toMatchObject({ settlement: { outcome: 'cancelled' } });
  });

  it('a delivery that fails without a definite refusal: the run ends with the answer responded, outcome unknown; after a refusal, cancelled', async () => {
    for (const [failure, expected] of [
      [new Error('EPIPE: the provider went away'), 'unknown'],
      [new ProviderRejection(agentError('invalid_request', 'refused')), 'cancelled'],
    ] as const) {
      const { manual, runtime, session, run, turn, interactionId } = await awaitingApproval();
      manual.respondFailure = failure;
      const failed = await settledAs(
        session.respond(interactionId, { kind: 'approval', decision: 'approved', mode: 'once' }),
      );
      expect(isRuntimeError(failed)).toBe(true);
      run.complete({ outcome: 'succeeded' });
      await turn.done;
      const settled = (await history(runtime, session.id)).find(
        (e) => e.payload.type === 'interaction.settled',
      );
      expect(settled?.payload).toMatchObject({
        settlement:
          expected === 'cancelled'
            ? { outcome: 'cancelled' }
            : {
                outcome: 'responded',
                response: { decision: 'approved' },
                error: { details: { reason: 'answer_outcome_unknown' } },
              },
      });
    }
  });
});
