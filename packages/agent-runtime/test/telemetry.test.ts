/**
 * The runtime's telemetry (docs/observability.md) on the scripted provider, with the SDK's
 * in-memory exporters: the spans and their parents, the metric points, no content unless asked,
 * and nothing at all when the host did not ask. The real codex turn: test/runtime/codex-telemetry.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { SpanStatusCode } from '@opentelemetry/api';
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import { createAgentRuntime, type RuntimeTelemetryOptions } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { openTelemetry } from '../src/telemetry/setup.js';
import { attributeStrings, parentOf, points } from './otel-sink.js';
import {
  onCleanup,
  rejection,
  tempDir,
  thrownRuntimeError,
  TWO_SCRIPTED_PROFILES,
} from './support.js';
import { approvedTurn, PROMPT, registerGlobally, sinkFor } from './telemetry-turn.js';

describe('runtime telemetry', () => {
  it('a session span with its turn under it, and the tool call and approval wait under the turn', async () => {
    const sink = sinkFor();
    const { session, turn } = await approvedTurn({
      tracerProvider: sink.tracerProvider,
      meterProvider: sink.meterProvider,
    });
    const spans = sink.spans();
    const byName = (name: string) => spans.filter((s) => s.name === name);
    expect(spans.map((s) => s.name).sort()).toEqual(
      ['execute_tool shell', 'relvo.interaction.wait', 'relvo.session', 'relvo.turn'].sort(),
    );
    const [sessionSpan] = byName('relvo.session');
    const [turnSpan] = byName('relvo.turn');
    const [toolSpan] = byName('execute_tool shell');
    const [waitSpan] = byName('relvo.interaction.wait');
    expect(parentOf(sessionSpan!)).toBeUndefined();
    expect(parentOf(turnSpan!)).toBe(sessionSpan!.spanContext().spanId);
    expect(parentOf(toolSpan!)).toBe(turnSpan!.spanContext().spanId);
    expect(parentOf(waitSpan!)).toBe(turnSpan!.spanContext().spanId);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    expect(sessionSpan!.attributes).toMatchObject({
      'relvo.session.id': session.id,
      'relvo.profile': 'alpha',
      'relvo.workspace.ownership': 'borrowed',
      'relvo.session.close_reason': 'requested',
    });
    expect(turnSpan!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'relvo.turn.id': turn.turnId,
      'relvo.run.id': turn.runId,
      'relvo.run.attempt': 1,
      'relvo.provider.id': 'scripted',
      'relvo.turn.outcome': 'completed',
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 7,
    });
    expect(toolSpan!.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'shell',
      'relvo.tool.outcome': 'succeeded',
    });
    expect(waitSpan!.attributes).toMatchObject({
      'relvo.interaction.kind': 'approval',
      'relvo.approval.category': 'command',
      'relvo.interaction.outcome': 'responded',
      'relvo.approval.decision': 'approved',
    });
    expect(waitSpan!.events.map((e) => e.name)).toEqual(['relvo.interaction.answered']);
    // no prompt, output, subject or path anywhere
    const strings = attributeStrings(spans).join('\n');
    for (const canary of ['canary-prompt', 'canary-output', 'canary-subject', 'relvo-otel-ws-']) {
      expect(strings).not.toContain(canary);
    }
  });

  it('metric points: tokens, durations, turns by outcome, the approval wait, live sessions, store appends', async () => {
    const sink = sinkFor();
    await approvedTurn({ tracerProvider: sink.tracerProvider, meterProvider: sink.meterProvider });
    const m = await sink.metrics();
    expect(points(m.get('gen_ai.client.token.usage'))).toEqual([
      {
        attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.token.type': 'input' },
        value: expect.objectContaining({ count: 1, sum: 120 }),
      },
      {
        attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.token.type': 'output' },
        value: expect.objectContaining({ count: 1, sum: 7 }),
      },
    ]);
    expect(points(m.get('relvo.turns'))).toEqual([
      { attributes: { 'relvo.turn.outcome': 'completed', 'relvo.profile': 'alpha' }, value: 1 },
    ]);
    for (const name of ['gen_ai.client.operation.duration', 'relvo.turn.duration']) {
      expect(points(m.get(name))).toHaveLength(1);
      expect(points(m.get(name))[0]!.value).toMatchObject({ count: 1 });
    }
    expect(points(m.get('relvo.interaction.wait.duration'))).toEqual([
      {
        attributes: {
          'relvo.interaction.kind': 'approval',
          'relvo.interaction.outcome': 'responded',
        },
        value: expect.objectContaining({ count: 1 }),
      },
    ]);
    // opened, then closed: back to zero
    expect(points(m.get('relvo.sessions.live'))).toEqual([{ attributes: {}, value: 0 }]);
    const appends = points(m.get('relvo.store.append.duration'));
    expect((appends[0]?.value as { count: number }).count).toBeGreaterThan(2);
  });

  it('recordContent: true adds the prompt, the workspace root, tool detail and the approval subject', async () => {
    const sink = sinkFor();
    const { workspace } = await approvedTurn({
      tracerProvider: sink.tracerProvider,
      meterProvider: sink.meterProvider,
      recordContent: true,
    });
    const spans = sink.spans();
    const attrs = (name: string) => spans.find((s) => s.name === name)!.attributes;
    expect(attrs('relvo.turn')['relvo.turn.input']).toBe(PROMPT);
    expect(attrs('relvo.session')['relvo.workspace.root']).toContain(
      join(workspace).split('/').at(-1),
    );
    expect(attrs('relvo.interaction.wait')['relvo.interaction.subject']).toBe(
      'touch canary-subject-91',
    );
    expect(attrs('execute_tool shell')['relvo.tool.detail']).toBe('{"activityId":"tool-1"}');
  });

  it('a failed turn: the span is an ERROR with error.type, and the metrics say failed', async () => {
    const sink = sinkFor();
    const scripted = createScriptedProvider({
      defaultScript: [{ type: 'fail', message: 'the scripted run fails' }],
    });
    const runtime = await createAgentRuntime({
      providers: { scripted: () => scripted.provider },
      config: TWO_SCRIPTED_PROFILES,
      telemetry: { tracerProvider: sink.tracerProvider, meterProvider: sink.meterProvider },
    });
    onCleanup(() => runtime.shutdown());
    const session = await runtime.openSession({ workspace: tempDir() });
    const turn = await session.submitTurn({ input: 'x' });
    scripted.controller.drain();
    const result = await turn.done;
    expect(result.turnState).toBe('failed');
    const code = result.termination.outcome === 'failed' ? result.termination.error.code : '';
    const turnSpan = sink.spans().find((s) => s.name === 'relvo.turn')!;
    expect(turnSpan.status.code).toBe(SpanStatusCode.ERROR);
    expect(turnSpan.attributes).toMatchObject({
      'relvo.turn.outcome': 'failed',
      'error.type': code,
    });
    const m = await sink.metrics();
    expect(points(m.get('relvo.turns'))).toEqual([
      { attributes: { 'relvo.turn.outcome': 'failed', 'relvo.profile': 'alpha' }, value: 1 },
    ]);
    expect(points(m.get('gen_ai.client.operation.duration'))[0]?.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'error.type': code,
    });
    // the session is still open: one live session
    expect(points(m.get('relvo.sessions.live'))).toEqual([{ attributes: {}, value: 1 }]);
  });

  it('telemetry: {} uses the globally registered providers', async () => {
    const sink = sinkFor();
    registerGlobally(sink);
    await approvedTurn({});
    expect(sink.spans().map((s) => s.name)).toContain('relvo.turn');
    expect(points((await sink.metrics()).get('relvo.turns'))).toHaveLength(1);
  });

  it('without the option nothing is emitted, even with an SDK registered globally, and the API is never loaded', async () => {
    const sink = sinkFor();
    registerGlobally(sink);
    await approvedTurn(undefined);
    expect(sink.spans()).toEqual([]);
    expect((await sink.metrics()).size).toBe(0);
    // the seam createAgentRuntime uses: no options, no observer, no load
    const loads: string[] = [];
    expect(
      openTelemetry(undefined, (id) => {
        loads.push(id);
        return {};
      }),
    ).toBeUndefined();
    expect(loads).toEqual([]);
  });

  it('a host without @opentelemetry/api that asks for telemetry gets telemetry_api_missing', () => {
    const host = tempDir('relvo-no-otel-');
    const thrown = thrownRuntimeError(() =>
      openTelemetry({}, createRequire(join(host, 'host.js'))),
    );
    expect(thrown.reason).toBe('telemetry_api_missing');
    expect(thrown.error.retryable).toBe(false);
    expect(thrown.message).toContain('npm install @opentelemetry/api');
  });

  it('refuses a telemetry option it does not know, naming the key', async () => {
    const error = await rejection(
      createAgentRuntime({
        providers: { scripted: () => createScriptedProvider().provider },
        config: TWO_SCRIPTED_PROFILES,
        telemetry: { recordPrompts: true } as RuntimeTelemetryOptions,
      }),
    );
    expect(error.reason).toBe('option_invalid');
    expect(JSON.stringify(error.error.details)).toContain('recordPrompts');
  });
});
