import { SPI_LIMITS, type InteractionRequest } from '@relvo-labs/agent-provider';
import { isRuntimeError } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { manualRuntime, turnWithRun } from './support.js';

const approval: InteractionRequest = {
  kind: 'approval',
  subject: { category: 'command', summary: 'run ls' },
  allowedModes: ['once'],
  riskHint: 'medium',
};

async function reasonOf(work: Promise<unknown>): Promise<unknown> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  return isRuntimeError(error) ? error.reason : error;
}

describe('settled-interaction memory', () => {
  it('remembers the last rememberedSettlements settled interactions, even within one run', async () => {
    const { manual, session, events } = await manualRuntime();
    const { turn, run } = await turnWithRun(manual, session);
    const ids: string[] = [];
    const limit = SPI_LIMITS.rememberedSettlements;
    for (let i = 0; i <= limit; i += 1) {
      run.sink.emit({
        payload: { type: 'interaction.requested', providerRef: `r${i}`, request: approval },
      });
      ids.push(session.pendingInteractions()[0]!.interactionId);
      run.sink.emit({ payload: { type: 'interaction.withdrawn', providerRef: `r${i}` } });
    }
    expect(session.pendingInteractions()).toHaveLength(0);
    const denial = { kind: 'approval', decision: 'denied' } as const;
    // the oldest of limit + 1 settlements is forgotten; the next one is still known as settled
    expect(await reasonOf(session.respond(ids[0]!, denial))).toBe('unknown_interaction');
    expect(await reasonOf(session.respond(ids[1]!, denial))).toBe('interaction_settled');
    // a ref the run already used is still refused as a duplicate while it is remembered
    run.sink.emit({
      payload: { type: 'interaction.requested', providerRef: `r${limit}`, request: approval },
    });
    expect(session.pendingInteractions()).toHaveLength(0);
    run.complete({ outcome: 'succeeded' });
    expect((await turn.done).turnState).toBe('completed');
    const refusals = (await events()).flatMap((e) =>
      e.payload.type === 'diagnostic' ? [e.payload.detail?.['reason']] : [],
    );
    expect(refusals).toEqual(['duplicate_provider_ref']);
    expect(manual.sessions[0]!.responses).toHaveLength(0);
  });
});
