import { describe, expect, it } from 'vitest';
import {
  agentErrorSchema,
  interactionSettlementSchema,
  providerRecoveryRecordSchema,
  providerRunTerminationSchema,
  runTerminationSchema,
} from '../src/index.js';
import { agentInteractionSchema } from '../src/schemas/termination.js';

describe('termination, recovery, error and settlement', () => {
  const error = { code: 'internal', message: 'boom' };
  const at = '2025-01-02T03:04:05.678Z';

  it('provider run termination is a strict union on outcome', () => {
    expect(providerRunTerminationSchema.safeParse({ outcome: 'succeeded' }).success).toBe(true);
    expect(providerRunTerminationSchema.safeParse({ outcome: 'failed' }).success).toBe(false);
    expect(providerRunTerminationSchema.parse({ outcome: 'failed', error })).toEqual({
      outcome: 'failed',
      error: { ...error, retryable: false },
    });
    expect(
      providerRunTerminationSchema.safeParse({ outcome: 'interrupted', reason: 'r'.repeat(2000) })
        .success,
    ).toBe(true);
    expect(
      providerRunTerminationSchema.safeParse({ outcome: 'interrupted', reason: 'r'.repeat(2001) })
        .success,
    ).toBe(false);
    expect(providerRunTerminationSchema.safeParse({ outcome: 'succeeded', at }).success).toBe(
      false,
    );
  });

  it('run termination carries a timestamp', () => {
    expect(runTerminationSchema.safeParse({ outcome: 'succeeded', at }).success).toBe(true);
    expect(runTerminationSchema.safeParse({ outcome: 'succeeded' }).success).toBe(false);
    expect(
      runTerminationSchema.safeParse({ outcome: 'interrupted', at: 'yesterday' }).success,
    ).toBe(false);
  });

  it('agent error: 23 codes, bounds, strict', () => {
    expect(agentErrorSchema.safeParse({ code: 'nope', message: 'm' }).success).toBe(false);
    expect(agentErrorSchema.safeParse({ ...error, message: '' }).success).toBe(false);
    expect(agentErrorSchema.safeParse({ ...error, message: 'm'.repeat(2000) }).success).toBe(true);
    expect(agentErrorSchema.safeParse({ ...error, message: 'm'.repeat(2001) }).success).toBe(false);
    expect(agentErrorSchema.safeParse({ ...error, providerCode: 'p'.repeat(200) }).success).toBe(
      true,
    );
    expect(agentErrorSchema.safeParse({ ...error, providerCode: 'p'.repeat(201) }).success).toBe(
      false,
    );
    expect(agentErrorSchema.safeParse({ ...error, stack: 's' }).success).toBe(false);
  });

  it('recovery record requires JSON opaque data', () => {
    const rec = { providerId: 'demo', providerVersion: '1', wireVersion: '0.8', opaque: { a: 1 } };
    expect(providerRecoveryRecordSchema.safeParse(rec).success).toBe(true);
    expect(providerRecoveryRecordSchema.safeParse({ ...rec, opaque: null }).success).toBe(true);
    expect(providerRecoveryRecordSchema.safeParse({ ...rec, opaque: undefined }).success).toBe(
      false,
    );
    expect(providerRecoveryRecordSchema.safeParse({ ...rec, opaque: new Date() }).success).toBe(
      false,
    );
    expect(
      providerRecoveryRecordSchema.safeParse({ ...rec, providerId: 'x'.repeat(65) }).success,
    ).toBe(false);
  });

  const response = { kind: 'approval', decision: 'denied' };
  it.each([
    [{ outcome: 'responded', response }, true],
    [{ outcome: 'responded' }, false],
    [{ outcome: 'expired', response }, false],
    [{ outcome: 'withdrawn' }, true],
  ])('settlement has a response exactly when responded: %j -> %s', (settlement, ok) => {
    expect(interactionSettlementSchema.safeParse({ ...settlement, settledAt: at }).success).toBe(
      ok,
    );
  });

  it('agent interaction: status matches settlement and kinds agree', () => {
    const interaction = {
      interactionId: 'int_1',
      sessionId: 'ses_1',
      turnId: 'trn_1',
      runId: 'run_1',
      status: 'pending',
      request: {
        kind: 'approval',
        subject: { category: 'other', summary: 's' },
        allowedModes: ['once'],
      },
      requestedAt: at,
    };
    const settled = {
      outcome: 'responded',
      settledAt: at,
      response: { kind: 'approval', decision: 'denied' },
    };
    expect(agentInteractionSchema.safeParse(interaction).success).toBe(true);
    expect(agentInteractionSchema.safeParse({ ...interaction, status: 'settled' }).success).toBe(
      false,
    );
    expect(
      agentInteractionSchema.safeParse({ ...interaction, status: 'settled', settlement: settled })
        .success,
    ).toBe(true);
    expect(agentInteractionSchema.safeParse({ ...interaction, settlement: settled }).success).toBe(
      false,
    );
    const wrongKind = { ...settled, response: { kind: 'question', answer: 'x' } };
    expect(
      agentInteractionSchema.safeParse({ ...interaction, status: 'settled', settlement: wrongKind })
        .success,
    ).toBe(false);
    expect(agentInteractionSchema.safeParse({ ...interaction, sessionId: 'run_1' }).success).toBe(
      false,
    );
  });
});
