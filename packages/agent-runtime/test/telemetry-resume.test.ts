/**
 * Telemetry of a session this process did not open (docs/observability.md, "Spans"): resumed
 * after its runtime died, its span starts with its first turn here, marked resumed; a fork's
 * span names its source. The settlement a starting runtime writes for the dead turn opens none.
 */
import { join } from 'node:path';
import { createAgentRuntime, openSqliteEventStore } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { createDurableProvider } from './durable-provider.js';
import { manualOptions } from './manual-provider.js';
import { parentOf } from './otel-sink.js';
import { runtimeOnManual, tempDir } from './support.js';
import { sinkFor } from './telemetry-turn.js';

describe('telemetry of resumed and forked sessions', () => {
  it('a resumed session is a span from its first turn here, marked resumed; a fork names its source', async () => {
    const path = join(tempDir(), 'events.db');
    const durable = createDurableProvider();
    const store = openSqliteEventStore({ path });
    const first = await createAgentRuntime(manualOptions(durable.provider, { store }));
    const dead = await first.openSession({ workspace: tempDir() });
    const done = await dead.submitTurn({ input: 'first' });
    durable.manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    await done.done;
    // the process "dies": its store is released, nothing is closed
    await store.close();

    const sink = sinkFor();
    const again = createDurableProvider();
    const second = await runtimeOnManual(again.provider, {
      store: openSqliteEventStore({ path }),
      closeGraceMs: 2_000,
      telemetry: { tracerProvider: sink.tracerProvider, meterProvider: sink.meterProvider },
    });
    const session = await second.resumeSession(dead.id);
    const turn = await session.submitTurn({ input: 'second' });
    again.manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    await turn.done;
    const fork = await second.forkSession(session.id);
    await fork.close();
    await session.close();

    const spans = sink.spans();
    const sessions = spans.filter((s) => s.name === 'relvo.session');
    const resumed = sessions.find((s) => s.attributes['relvo.session.id'] === dead.id);
    const forked = sessions.find((s) => s.attributes['relvo.session.id'] === fork.id);
    expect(sessions).toHaveLength(2);
    expect(resumed?.attributes).toMatchObject({
      'relvo.session.resumed': true,
      'relvo.profile': 'm',
      'relvo.session.close_reason': 'requested',
    });
    expect(forked?.attributes).toMatchObject({ 'relvo.session.forked_from': dead.id });
    // only the turn run here: the first process's turn was settled there
    const turns = spans.filter((s) => s.name === 'relvo.turn');
    expect(turns.map((t) => t.attributes['relvo.turn.id'])).toEqual([turn.turnId]);
    expect(parentOf(turns[0]!)).toBe(resumed!.spanContext().spanId);
  });
});
