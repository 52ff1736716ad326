/**
 * `session.injectContext` through the runtime on the REAL codex (scripted model on 127.0.0.1):
 * the items are in the log (`context.injected`) and in the model's next request, after the
 * earlier turn and before the new input; while a run streams the runtime hands them on as codex
 * takes them (codex does not refuse an injection mid-turn: the same turn asks the model again).
 */
import {
  type AgentRuntime,
  type EventEnvelope,
  type RuntimeSession,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { ScriptedModelServer, textStep } from '../../src/testing/index.js';
import { useCleanups } from '../support/cleanups.js';
import { codexRuntime } from '../support/codex-runtime.js';
import { expectNotesBetween, twoNotes } from '../support/model-requests.js';
import { slowTextStep } from '../support/real-codex.js';

const cleanups = useCleanups();

async function harness(): Promise<{
  runtime: AgentRuntime;
  server: ScriptedModelServer;
  session: RuntimeSession;
}> {
  const { runtime, server, workspace } = await codexRuntime(cleanups, {
    prefix: 'relvo-runtime-inject-',
  });
  return { runtime, server, session: await runtime.openSession({ workspace }) };
}

async function stored(runtime: AgentRuntime, sessionId: string): Promise<EventEnvelope[]> {
  return [...(await runtime.readEvents(sessionId, { limit: 10_000 }))];
}

/** Until the log holds an event of `type` (bounded: never waits without an end). */
async function untilStored(runtime: AgentRuntime, sessionId: string, type: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await stored(runtime, sessionId)).some((e) => e.payload.type === type)) {
    if (Date.now() > deadline) throw new Error(`no ${type} within 15 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const NOTES = twoNotes('RUNTIME NOTE: gold plan', 'RUNTIME USER NOTE');

describe('session.injectContext on the real codex', () => {
  it("is logged, then reaches the model's next request after the earlier turn", async () => {
    const h = await harness();
    h.server.enqueue(textStep(['first']), textStep(['second']));
    const first = await h.session.submitTurn({ input: 'first question' });
    expect((await first.done).turnState).toBe('completed');
    await h.session.injectContext(NOTES);
    const second = await h.session.submitTurn({ input: 'second question' });
    expect((await second.done).turnState).toBe('completed');

    const events = await stored(h.runtime, h.session.id);
    const injected = events.filter((e) => e.payload.type === 'context.injected');
    expect(injected.map((e) => e.payload)).toEqual([
      { type: 'context.injected', profile: 'codex', items: NOTES },
    ]);
    // recorded between the turns, outside any run
    const at = (type: string, nth = 0): number =>
      events.filter((e) => e.payload.type === type)[nth]?.sequence ?? -1;
    expect(injected[0]?.runId).toBeUndefined();
    expect(injected[0]?.sequence).toBeGreaterThan(at('turn.settled', 0));
    expect(injected[0]?.sequence).toBeLessThan(at('turn.started', 1));

    const request = h.server.requests[1];
    if (request === undefined) throw new Error('no second model request');
    expectNotesBetween(request, 'first question', NOTES, 'second question');
    expect(JSON.stringify(h.server.requests[0]?.body)).not.toContain('RUNTIME NOTE');
  });

  it('while a run streams it is taken, not refused: the same turn asks the model again with it', async () => {
    const h = await harness();
    h.server.enqueue(slowTextStep(30, 40, 'w'), textStep(['after the note']));
    const turn = await h.session.submitTurn({ input: 'count' });
    await untilStored(h.runtime, h.session.id, 'run.message_delta');
    await h.session.injectContext([{ type: 'text', role: 'user', text: 'MID-RUN NOTE' }]);
    expect((await turn.done).turnState).toBe('completed');
    expect(h.server.requests).toHaveLength(2);
    expect(JSON.stringify(h.server.requests[0]?.body)).not.toContain('MID-RUN NOTE');
    expect(JSON.stringify(h.server.requests[1]?.body)).toContain('MID-RUN NOTE');
    const events = await stored(h.runtime, h.session.id);
    const injected = events.find((e) => e.payload.type === 'context.injected');
    const finished = events.find((e) => e.payload.type === 'run.finished');
    expect(injected?.sequence).toBeLessThan(finished?.sequence ?? 0);
  });
});
