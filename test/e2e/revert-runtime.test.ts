/**
 * Revert and history through the runtime, on the real binary (`persistence: 'thread'`): `runtime.revert`
 * records `session.revert_requested` durably before codex hears of it and `session.reverted`
 * after; the next turn's model request lacks the reverted turn; a revert while a turn runs is
 * refused `session_busy` with nothing recorded.
 */
import { describe, expect, it } from 'vitest';
import { textStep } from '@relvo-labs/agent-provider-codex/testing';
import {
  createMemoryEventStore,
  isRuntimeError,
  type EventEnvelope,
} from '@relvo-labs/agent-runtime';
import { useCleanups } from '../support/cleanups.js';
import { codexRuntime } from '../support/codex-runtime.js';

const cleanups = useCleanups();

async function started() {
  const store = createMemoryEventStore();
  const { iso, server, runtime } = await codexRuntime(cleanups, {
    prefix: 'relvo-revert-rt-',
    providerOptions: { persistence: 'thread' },
    runtime: { store },
  });
  const session = await runtime.openSession({ workspace: iso.workspace });
  const stored = async (): Promise<EventEnvelope[]> => {
    return [...(await store.read(session.id, { fromSequence: 1, limit: 10_000 }))];
  };
  return { server, runtime, session, stored };
}

const userTexts = (body: unknown): string[] =>
  ((body as { input?: { role?: string; content?: { text?: string }[] }[] }).input ?? [])
    .filter((i) => i.role === 'user')
    .map((i) => (i.content ?? []).map((c) => c.text ?? '').join(''))
    .filter((t) => !t.includes('<environment_context>'));

describe('revert through the runtime against the real binary', () => {
  it('records the request before the revert and the outcome after; the model no longer sees the turn', async () => {
    const { server, runtime, session, stored } = await started();
    server.enqueue(textStep('one'), textStep('two'), textStep('three'));
    await (
      await session.submitTurn({ input: 'first question' })
    ).done;
    await (
      await session.submitTurn({ input: 'second question' })
    ).done;
    await runtime.revert(session.id, { turns: 1 });
    const types = (await stored()).map((e) => e.payload.type);
    const requested = types.indexOf('session.revert_requested');
    expect(requested).toBeGreaterThan(types.lastIndexOf('turn.settled'));
    expect(types.indexOf('session.reverted')).toBeGreaterThan(requested);
    const reverted = (await stored()).find((e) => e.payload.type === 'session.reverted');
    expect(reverted?.payload).toEqual({
      type: 'session.reverted',
      turns: 1,
      profile: 'codex',
      files: 'kept',
    });
    await (
      await session.submitTurn({ input: 'third question' })
    ).done;
    expect(userTexts(server.requests[2]?.body)).toEqual(['first question', 'third question']);
  });

  it('is refused while a turn runs, with nothing recorded, typed for a bad count; the interrupted turn reverts after', async () => {
    const { server, session, stored } = await started();
    server.enqueue(textStep(['slow ', 'answer'], { stallAfterDeltas: 1 }));
    const turn = await session.submitTurn({ input: 'slow question' });
    const busy = await session.revert({ turns: 1 }).catch((e: unknown) => e);
    expect(isRuntimeError(busy) && busy.reason).toBe('session_busy');
    const bad = await session.revert({ turns: 0 }).catch((e: unknown) => e);
    expect(isRuntimeError(bad) && bad.code).toBe('invalid_request');
    await session.interrupt('test');
    expect((await turn.done).termination.outcome).toBe('interrupted');
    expect((await stored()).map((e) => e.payload.type)).not.toContain('session.revert_requested');
    // once the run ended, the interrupted turn itself can be taken back
    expect(await session.revert({ turns: 1 })).toEqual({ turns: 1, files: 'kept' });
  });
});
