import { createMemoryEventStore, isRuntimeError, type EventStore } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { history, scriptedRuntime, settlesWithin } from './support.js';

describe('a subscription', () => {
  it('two concurrent next() calls both settle, in sequence order', async () => {
    const { runtime, scripted, session } = await scriptedRuntime();
    const stored = (await history(runtime, session.id)).length;
    const events = session.subscribe({ fromSequence: stored + 1 })[Symbol.asyncIterator]();
    const first = events.next();
    const second = events.next();
    const turn = await session.submitTurn({ input: 'hi' });
    scripted.controller.drain();
    const [a, b] = await settlesWithin(Promise.all([first, second]), 'two concurrent next()');
    expect([a.value?.sequence, b.value?.sequence]).toEqual([stored + 1, stored + 2]);
    await events.return?.();
    expect((await turn.done).turnState).toBe('completed');
  });

  it('close() ends every pending next() as done', async () => {
    const { runtime, session } = await scriptedRuntime();
    const stored = (await history(runtime, session.id)).length;
    const subscription = session.subscribe({ fromSequence: stored + 1 });
    const events = subscription[Symbol.asyncIterator]();
    const pending = [events.next(), events.next(), events.next()];
    await new Promise((resolve) => setImmediate(resolve));
    subscription.close();
    expect(
      (await settlesWithin(Promise.all(pending), 'pending next()')).map((r) => r.done),
    ).toEqual([true, true, true]);
  });

  it('ends with log_corrupt, never a loop, when a store skips the sequence it was asked for', async () => {
    const memory = createMemoryEventStore();
    let reads = 0;
    // a store that does not verify what it reads, with a hole at sequence 3
    const skipping: EventStore = {
      ...memory,
      kind: 'skipping',
      read: async (id, options) => {
        reads += 1;
        return (await memory.read(id, options)).filter((e) => e.sequence !== 3);
      },
    };
    const { runtime, session } = await scriptedRuntime({ store: skipping });
    await session.close();
    reads = 0;
    const seen: number[] = [];
    const ended = await settlesWithin(
      (async () => {
        for await (const e of runtime.subscribe(session.id)) seen.push(e.sequence);
      })().then(
        () => undefined,
        (e: unknown) => e,
      ),
      'the subscription',
      1_000,
    );
    expect(isRuntimeError(ended) ? [ended.reason, ended.error.details?.sequence] : ended).toEqual([
      'log_corrupt',
      3,
    ]);
    expect(seen).toEqual([1, 2]);
    expect(reads).toBeLessThanOrEqual(2);
  });
});
