/**
 * Host tools and injected context on the real binary, against the scripted model: the model's
 * call of a host tool reaches the host as a `tool_call` interaction and the host's answer is
 * what the model reads in its next request; an input its schema refuses never reaches the host
 * and the model is told why; injected text reaches the model's next request.
 */
import { describe, expect, it } from 'vitest';
import { isProviderRejection } from '@relvo-labs/agent-provider';
import { functionCallOutput, functionCallStep, textStep } from '../../src/testing/index.js';
import { LOOKUP_TICKET as LOOKUP } from '../../scripts/lib/scenarios-host.js';
import { expectNotesBetween, twoNotes } from '../support/model-requests.js';
import { openRealCodex, slowTextStep } from '../support/real-codex.js';
import * as turns from '../support/turns.js';

describe('host tools on the real binary', () => {
  it("the model calls a host tool and reads the host's result in its next request", async () => {
    const codex = await openRealCodex({ experimentalApi: true }, { tools: [LOOKUP] });
    codex.server.enqueue(
      functionCallStep('lookup_ticket', { id: 42 }, { callId: 'call_host_1' }),
      textStep(['Ticket 42 is open.']),
    );
    const { run, asked } = await turns.untilAsked(
      codex.session,
      'ticket 42?',
      'r1',
      'the tool call',
    );
    expect(asked.request).toEqual({
      kind: 'tool_call',
      tool: 'lookup_ticket',
      input: { id: 42 },
    });
    await codex.session.respondToInteraction(asked.providerRef, {
      kind: 'tool_call',
      output: { type: 'json', value: { id: 42, status: 'open', owner: 'HOST-RESULT-7' } },
    });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    // the model was offered the tool, as declared
    const offered = (codex.server.requests[0]?.body as { tools?: { name?: string }[] }).tools;
    expect(offered?.find((t) => t.name === 'lookup_ticket')).toMatchObject({
      type: 'function',
      parameters: LOOKUP.inputSchema,
    });
    const second = codex.server.requests[1];
    if (second === undefined) throw new Error('no second model request');
    expect(JSON.parse(functionCallOutput(second, 'call_host_1') ?? 'null')).toEqual({
      id: 42,
      status: 'open',
      owner: 'HOST-RESULT-7',
    });
  });

  it('an input that fails the schema never reaches the host; the model is told why', async () => {
    const codex = await openRealCodex({ experimentalApi: true }, { tools: [LOOKUP] });
    codex.server.enqueue(
      functionCallStep('lookup_ticket', { id: 'abc', extra: true }, { callId: 'call_bad_1' }),
      functionCallStep('no_such_tool', {}, { callId: 'call_unknown_1' }),
      textStep(['gave up']),
    );
    const { sink, termination } = await turns.run(codex.session, 'ticket abc?', 'r1');
    expect(termination).toEqual({ outcome: 'succeeded' });
    expect(sink.events.filter((e) => e.payload.type === 'interaction.requested')).toEqual([]);
    const afterBad = codex.server.requests[1];
    if (afterBad === undefined) throw new Error('no second model request');
    const told = functionCallOutput(afterBad, 'call_bad_1') ?? '';
    expect(told).toMatch(/^the input does not match the tool's input schema: /);
    expect(told).toContain('/id must be integer');
    // ajv's messages only: the model's own values are not repeated back
    expect(told).not.toContain('abc');
    const diagnostics = codex.sessionSink.events
      .concat(sink.events)
      .filter((e) => e.payload.type === 'diagnostic');
    expect(JSON.stringify(diagnostics)).not.toContain('abc');
  });

  it('a session declaring tools without the experimental opt-in is refused before a spawn', async () => {
    const refused = await openRealCodex({}, { tools: [LOOKUP] }).catch((e: unknown) => e);
    expect(isProviderRejection(refused) && refused.agentError).toMatchObject({
      code: 'capability_unsupported',
      details: { capability: 'interaction.toolCall' },
    });
  });
});

const NOTES = twoNotes('HOST NOTE: gold plan', 'HOST USER NOTE');

describe('injected context on the real binary', () => {
  it("reaches the model's next request, after the earlier turns and before the new input", async () => {
    const codex = await openRealCodex();
    codex.server.enqueue(textStep(['first']), textStep(['second']));
    expect((await turns.end(codex.session, 'first question', 'r1')).outcome).toBe('succeeded');
    await codex.session.injectContext?.(NOTES);
    expect((await turns.end(codex.session, 'second question', 'r2')).outcome).toBe('succeeded');
    expectNotesBetween(codex.server.requests[1]!, 'first question', NOTES, 'second question');
    // the first request never saw it
    expect(JSON.stringify(codex.server.requests[0]?.body)).not.toContain('HOST NOTE');
  });

  it('is taken while a run streams (codex does not refuse it): the same run asks the model again', async () => {
    const codex = await openRealCodex();
    codex.server.enqueue(slowTextStep(30, 40, 'w'), textStep(['after the note']));
    const { run, sink } = await turns.start(codex.session, 'count', 'r1');
    await turns.firstDelta(sink);
    await codex.session.injectContext?.([{ type: 'text', role: 'user', text: 'MID-RUN NOTE' }]);
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    // measured on 0.171.0: one turn, a second model request that carries the note
    expect(codex.server.requests).toHaveLength(2);
    expect(JSON.stringify(codex.server.requests[1]?.body)).toContain('MID-RUN NOTE');
  });

  it('malformed items are refused and nothing is sent', async () => {
    const codex = await openRealCodex();
    const refused = await codex.session
      .injectContext?.([{ type: 'text', role: 'system', text: 'x' }] as never)
      .catch((e: unknown) => e);
    expect(isProviderRejection(refused) && refused.agentError.code).toBe('invalid_request');
  });
});
