/**
 * `runtime.forkSession` and per-run options on the REAL codex binary (scripted model on
 * 127.0.0.1): turn 1 in session A, fork to B, a turn in B whose model request carries A's turn;
 * A's next turn has nothing of B. B's turn also sets its own model through `submitTurn`, and a
 * profile's `run.model` is the default of every other turn.
 */
import type { RuntimeSession } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { textStep } from '../../src/testing/index.js';
import { useCleanups } from '../support/cleanups.js';
import { codexRuntime } from '../support/codex-runtime.js';

const cleanups = useCleanups();

function harness() {
  return codexRuntime(cleanups, {
    prefix: 'relvo-fork-',
    providerOptions: { persistence: 'thread' },
    profile: { run: { model: 'profile-model' } },
  });
}

async function turn(session: RuntimeSession, input: string, model?: string): Promise<void> {
  const handle = await session.submitTurn({ input, ...(model === undefined ? {} : { model }) });
  expect((await handle.done).termination).toMatchObject({ outcome: 'succeeded' });
}

describe('runtime.forkSession on the real binary', () => {
  it('B carries A’s turn; A does not get B’s; a turn’s model is its own, the profile’s the default', async () => {
    const { runtime, server, workspace } = await harness();
    server.enqueue(textStep('Noted KIWI.'), textStep('You said KIWI'), textStep('A again'));
    const a = await runtime.openSession({ workspace });
    await turn(a, 'remember KIWI');
    const b = await runtime.forkSession(a.id);
    expect(b.id).not.toBe(a.id);
    await turn(b, 'what did I say?', 'turn-model');
    await turn(a, 'and in A?');
    const body = (i: number) => server.requests[i]?.body as { model?: unknown; input?: unknown };
    const inB = JSON.stringify(body(1).input);
    expect(inB.indexOf('remember KIWI')).toBeGreaterThan(-1);
    expect(inB.indexOf('Noted KIWI.')).toBeGreaterThan(inB.indexOf('remember KIWI'));
    expect(inB.indexOf('what did I say?')).toBeGreaterThan(inB.indexOf('Noted KIWI.'));
    const inA = JSON.stringify(body(2).input);
    expect(inA).toContain('remember KIWI');
    expect(inA).not.toContain('what did I say?');
    expect([body(0).model, body(1).model, body(2).model]).toEqual([
      'profile-model',
      'turn-model',
      'profile-model',
    ]);
    // each session has its own log and its own recovery record (another thread)
    const threadOf = async (id: string): Promise<unknown> => {
      const events = await runtime.readEvents(id);
      const records = events.flatMap((e) =>
        e.payload.type === 'session.recovery_recorded' ? [e.payload.record.opaque] : [],
      );
      return (records.at(-1) as { threadId?: unknown } | undefined)?.threadId;
    };
    const [threadA, threadB] = await Promise.all([threadOf(a.id), threadOf(b.id)]);
    expect(typeof threadA).toBe('string');
    expect(typeof threadB).toBe('string');
    expect(threadB).not.toBe(threadA);
    const opened = (await runtime.readEvents(b.id))[0]?.payload;
    expect(opened).toMatchObject({ type: 'session.opened', forkedFrom: a.id });
  });
});
