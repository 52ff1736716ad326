/** Two runtimes over one log: one writes a session, the other follows it. */
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import { createAgentRuntime, type EventEnvelope, type EventStore } from '@relvo-labs/agent-runtime';
import { expect } from 'vitest';
import { expectGapless, onCleanup, tempDir, TWO_SCRIPTED_PROFILES, until } from './support.js';

/**
 * A runtime on `readerStore` subscribed to a session a runtime on `writerStore` opened follows it,
 * live and gapless, to session.closed, and does not recover it as its own.
 */
export async function expectReaderFollowsWriter(
  writerStore: EventStore,
  readerStore: EventStore,
): Promise<void> {
  const scripted = createScriptedProvider();
  const make = (store: EventStore) =>
    createAgentRuntime({
      providers: { scripted: () => scripted.provider },
      config: TWO_SCRIPTED_PROFILES,
      store,
    });
  const writer = await make(writerStore);
  onCleanup(() => writer.shutdown());
  const session = await writer.openSession({ workspace: tempDir() });
  const reader = await make(readerStore);
  onCleanup(() => reader.shutdown());
  // the writer's live session is not the reader's to recover
  expect(reader.recoveredSessionIds).toEqual([]);
  const seen: EventEnvelope[] = [];
  const following = (async () => {
    for await (const e of reader.subscribe(session.id, { fromSequence: 1 })) seen.push(e);
  })();
  await until(() => seen.length > 0, 'the replay');
  const turn = await session.submitTurn({ input: 'hello' });
  scripted.controller.drain();
  await turn.done;
  await session.close();
  await following;
  expectGapless(seen);
  expect(seen.at(-1)?.payload.type).toBe('session.closed');
  expect(seen.length).toBeGreaterThan(5);
}
