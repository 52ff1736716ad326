/**
 * What a host reads cannot change the log: envelopes, payloads and summaries it gets are frozen,
 * and a payload the runtime appends is its own copy.
 */
import { createMemoryEventStore, type EventEnvelope } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { openedLog } from './session-log.js';
import { manualRuntime, settlesWithin, until } from './support.js';

describe('what a host reads cannot change the log', () => {
  it('envelopes, payloads and summaries from the memory store and from a subscription are frozen', async () => {
    const { manual, runtime, session, events } = await manualRuntime();
    const live: EventEnvelope[] = [];
    const reader = (async () => {
      for await (const e of session.subscribe()) {
        live.push(e);
        if (e.payload.type === 'turn.settled') return;
      }
    })();
    const turn = await session.submitTurn({ input: 'original' });
    await until(() => manual.sessions[0]?.runs.length === 1, 'the run');
    manual.sessions[0]!.runs[0]!.sink.emit({ payload: { type: 'run.message_delta', text: 'a' } });
    manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    await turn.done;
    await settlesWithin(reader, 'the subscription');
    const before = structuredClone(await events());
    for (const envelope of [...(await events()), ...live]) {
      expect(() => {
        (envelope as { sequence: number }).sequence = 0;
      }).toThrow(TypeError);
      expect(() => {
        (envelope.payload as { type: string }).type = 'diagnostic';
      }).toThrow(TypeError);
    }
    const started = (await events()).find((e) => e.payload.type === 'turn.started');
    expect(() => {
      const input = (started?.payload as { input: { parts: { text: string }[] } }).input;
      input.parts[0]!.text = 'changed';
    }).toThrow(TypeError);
    const [summary] = await runtime.listSessions();
    expect(() => {
      (summary as { lastSequence: number }).lastSequence = 0;
    }).toThrow(TypeError);
    expect(await events()).toEqual(before);
    expect((await runtime.listSessions())[0]?.lastSequence).toBe(before.length);
  });

  it('a payload the runtime appends is copied: changing the original later changes nothing', async () => {
    const store = createMemoryEventStore();
    const workspace = { root: '/w', ownership: 'borrowed' as const };
    const { log } = await openedLog(store, 'ses_copy', { workspace });
    await log.durable();
    workspace.root = '/elsewhere';
    const [opened] = await store.read('ses_copy', { fromSequence: 1, limit: 1 });
    expect(opened?.payload).toMatchObject({ workspace: { root: '/w' } });
  });
});
