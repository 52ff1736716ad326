import { join } from 'node:path';
import { WIRE_VERSION } from '@relvo-labs/agent-provider';
import {
  createAgentRuntime,
  createMemoryEventStore,
  eventEnvelopeSchema,
  isRuntimeError,
  openSqliteEventStore,
  parseEventEnvelope,
  type EventEnvelope,
  type EventStore,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { createManualProvider } from './manual-provider.js';
import { expectGapless, history, onCleanup, scriptedRuntime, tempDir, until } from './support.js';

const STORES: [string, () => EventStore][] = [
  ['memory', () => createMemoryEventStore()],
  ['sqlite', () => openSqliteEventStore({ path: join(tempDir(), 'events.db') })],
];

const THOUSAND = Array.from({ length: 1000 }, (_, i) => ({
  type: 'delta' as const,
  text: `d${i} `,
}));

async function collect(
  iterable: AsyncIterable<EventEnvelope>,
  until: (e: EventEnvelope) => boolean,
): Promise<EventEnvelope[]> {
  const out: EventEnvelope[] = [];
  for await (const e of iterable) {
    out.push(e);
    if (until(e)) break;
  }
  return out;
}

describe.each(STORES)('envelopes on the %s store', (_name, makeStore) => {
  it('every envelope parses with the exported schema and sequences are gapless from 1', async () => {
    const { runtime, scripted, session } = await scriptedRuntime({ store: makeStore() });
    const turn = await session.submitTurn({ input: 'hi' });
    scripted.controller.drain();
    await turn.done;
    const events = await history(runtime, session.id);
    expectGapless(events);
    for (const e of events) {
      expect(parseEventEnvelope(JSON.parse(JSON.stringify(e)))).toEqual(e);
      expect(e.wireVersion).toBe(WIRE_VERSION);
      expect(e.sessionId).toBe(session.id);
    }
    expect(events.filter((e) => e.runId !== undefined).every((e) => e.runId === turn.runId)).toBe(
      true,
    );
    expect(eventEnvelopeSchema.safeParse({ ...events[0], sequence: 0 }).success).toBe(false);
  });

  it('a subscription started mid-run from sequence 1 sees every envelope exactly once', async () => {
    const { runtime, scripted, session } = await scriptedRuntime({
      store: makeStore(),
      scripted: {
        scripts: {
          long: [
            ...THOUSAND.slice(0, 300),
            { type: 'ask', ref: 'q', request: { kind: 'question', prompt: 'more?' } },
            ...THOUSAND.slice(300, 600),
            { type: 'succeed' },
          ],
        },
      },
    });
    const turn = await session.submitTurn({ input: 'long' });
    scripted.controller.drain(); // 300 deltas, then waits on the question
    const subscription = session.subscribe({ fromSequence: 1, liveBufferLimit: 64 });
    const reading = collect(subscription, (e) => e.payload.type === 'session.closed');
    const [pending] = session.pendingInteractions();
    await session.respond(pending!.interactionId, { kind: 'question', answer: 'yes' });
    scripted.controller.drain();
    await turn.done;
    await session.close();
    const seen = await reading;
    expectGapless(seen);
    expect(seen.map((e) => e.eventId)).toEqual(
      (await history(runtime, session.id)).map((e) => e.eventId),
    );
    expect(seen.filter((e) => e.payload.type === 'run.message_delta')).toHaveLength(600);
  });

  it('1,000 provider events per run across 8 concurrent sessions keep every sequence gapless', async () => {
    const manual = createManualProvider();
    const runtime = await createAgentRuntime({
      providers: { manual: () => manual.provider },
      config: { defaultProfile: 'm', profiles: { m: { provider: 'manual' } } },
      store: makeStore(),
    });
    onCleanup(() => runtime.shutdown());
    const sessions = await Promise.all(
      Array.from({ length: 8 }, () => runtime.openSession({ workspace: tempDir() })),
    );
    const live = sessions.map((s) =>
      collect(s.subscribe(), (e) => e.payload.type === 'turn.settled'),
    );
    const turns = await Promise.all(sessions.map((s) => s.submitTurn({ input: 'many' })));
    await until(
      () => manual.sessions.every((s) => s.runs.length === 1) && manual.sessions.length === 8,
      'runs',
    );
    // interleave the 8 runs event by event, yielding to the event loop so batches interleave too
    for (let i = 0; i < 1000; i += 1) {
      for (const s of manual.sessions)
        s.runs[0]!.sink.emit({ payload: { type: 'run.message_delta', text: `d${i}` } });
      if (i % 37 === 0) await new Promise((r) => setImmediate(r));
    }
    for (const s of manual.sessions) s.runs[0]!.complete({ outcome: 'succeeded' });
    await Promise.all(turns.map((t) => t.done));
    const seen = await Promise.all(live);
    for (const [i, s] of sessions.entries()) {
      const events = await history(runtime, s.id);
      expectGapless(events);
      const deltas = events.filter((e) => e.payload.type === 'run.message_delta');
      expect(
        deltas.map((e) => (e.payload.type === 'run.message_delta' ? e.payload.text : '')),
      ).toEqual(Array.from({ length: 1000 }, (_, k) => `d${k}`));
      expect(seen[i]!.map((e) => e.sequence)).toEqual(events.map((e) => e.sequence));
    }
  });

  it('replays from any sequence and refuses a cursor beyond the end or an unknown session', async () => {
    const { runtime, session } = await scriptedRuntime({ store: makeStore() });
    const fromTwo = session.subscribe({ fromSequence: 2 });
    const iterator = fromTwo[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.sequence).toBe(2);
    fromTwo.close();
    expect((await iterator.next()).done).toBe(true);
    const first = (sub: AsyncIterable<EventEnvelope>) => sub[Symbol.asyncIterator]().next();
    const beyond = await first(session.subscribe({ fromSequence: 99 })).catch((e: unknown) => e);
    expect(isRuntimeError(beyond) && beyond.reason).toBe('cursor_out_of_range');
    const unknown = await first(runtime.subscribe('ses_nope')).catch((e: unknown) => e);
    expect(isRuntimeError(unknown) && unknown.reason).toBe('unknown_session');
  });
});
