/**
 * The runtime's telemetry on the REAL codex (scripted model on 127.0.0.1): one turn whose first
 * model request fails and is retried, then runs a command that needs an approval, answered by
 * the host. The SDK's in-memory exporters receive the spans docs/observability.md lists, with
 * their parents, and the metric points; no prompt, output or path is in any attribute.
 */
import { describe, expect, it } from 'vitest';
import {
  execCommandStep,
  functionCallOutput,
  responseFailedStep,
  scriptedUsage,
  textStep,
} from '../../src/testing/index.js';
import {
  attributeStrings,
  otelSink,
  parentOf,
  points,
} from '../../packages/agent-runtime/test/otel-sink.js';
import { until } from '../../packages/agent-runtime/test/support.js';
import { useCleanups } from '../support/cleanups.js';
import { codexRuntime } from '../support/codex-runtime.js';

const cleanups = useCleanups();

const PROMPT = 'canary-prompt-5521 run the marker command';

describe('runtime telemetry on the real codex', () => {
  it('a retried model request, a command approval and its wait: the documented spans, parents, attributes and metrics', async () => {
    const sink = otelSink();
    cleanups.push(() => sink.shutdown());
    const { iso, server, runtime } = await codexRuntime(cleanups, {
      prefix: 'relvo-otel-',
      providerOptions: ({ server }) => ({
        // one stream retry: codex says so (error, willRetry) before its second request
        extraArgs: server.configArgs({ extra: ['model_providers.scripted.stream_max_retries=1'] }),
        sandboxMode: 'workspace-write',
        approvals: 'bridge',
        toolActivity: 'redacted',
      }),
      runtime: {
        telemetry: { tracerProvider: sink.tracerProvider, meterProvider: sink.meterProvider },
      },
    });
    const marker = `canary-output-${String(process.pid)}`;
    server.enqueue(
      responseFailedStep('rate_limit_exceeded', 'Rate limit reached. Please try again in 20ms.'),
      execCommandStep(`echo ${marker}`, {
        callId: 'call_otel',
        escalate: true,
        justification: 'canary-justification',
      }),
      textStep(['done ', marker], { usage: scriptedUsage(900, 40, 0, 0) }),
    );
    const session = await runtime.openSession({ workspace: iso.workspace });
    const turn = await session.submitTurn({ input: PROMPT });
    await until(() => session.pendingInteractions().length === 1, 'the approval');
    const [pending] = session.pendingInteractions();
    await session.respond(pending!.interactionId, {
      kind: 'approval',
      decision: 'approved',
      mode: 'once',
    });
    expect((await turn.done).turnState).toBe('completed');
    expect(functionCallOutput(server.requests.at(-1)!, 'call_otel')).toContain(marker);
    await session.close();
    // the turn's tokens are what the runtime logged: codex's usage over both model requests
    const logged = (await runtime.readEvents(session.id, { limit: 1000 })).flatMap((e) =>
      e.payload.type === 'run.usage' ? [e.payload.usage] : [],
    );
    const usage = logged.at(-1)!;
    expect(usage.inputTokens).toBeGreaterThanOrEqual(900);

    const spans = sink.spans();
    const named = (name: string) => spans.filter((s) => s.name === name);
    const [sessionSpan] = named('relvo.session');
    const [turnSpan] = named('relvo.turn');
    const [waitSpan] = named('relvo.interaction.wait');
    const tools = spans.filter((s) => s.name.startsWith('execute_tool '));
    expect(sessionSpan && turnSpan && waitSpan).toBeTruthy();
    expect(parentOf(sessionSpan!)).toBeUndefined();
    expect(parentOf(turnSpan!)).toBe(sessionSpan!.spanContext().spanId);
    expect(parentOf(waitSpan!)).toBe(turnSpan!.spanContext().spanId);
    // the approved command, as codex's tool item: under the turn, succeeded
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) expect(parentOf(tool)).toBe(turnSpan!.spanContext().spanId);
    expect(tools.map((t) => t.attributes['relvo.tool.outcome'])).toContain('succeeded');
    expect(turnSpan!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'relvo.turn.id': turn.turnId,
      'relvo.run.id': turn.runId,
      'relvo.provider.id': 'codex',
      'relvo.turn.outcome': 'completed',
      'gen_ai.usage.input_tokens': usage.inputTokens,
      'gen_ai.usage.output_tokens': usage.outputTokens,
    });
    const retries = turnSpan!.events.filter((e) => e.name === 'relvo.model.retry');
    expect(retries).toHaveLength(1);
    expect(retries[0]!.attributes).toMatchObject({ 'relvo.retry.number': 1 });
    expect(waitSpan!.attributes).toMatchObject({
      'relvo.interaction.kind': 'approval',
      'relvo.approval.category': 'command',
      'relvo.interaction.outcome': 'responded',
      'relvo.approval.decision': 'approved',
    });
    // the wait is inside the turn, and the answer inside the wait
    const ms = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;
    expect(ms(waitSpan!.startTime)).toBeGreaterThanOrEqual(ms(turnSpan!.startTime));
    expect(ms(waitSpan!.endTime)).toBeLessThanOrEqual(ms(turnSpan!.endTime));
    expect(waitSpan!.events.map((e) => e.name)).toEqual(['relvo.interaction.answered']);
    const strings = attributeStrings(spans).join('\n');
    for (const secret of ['canary-prompt', 'canary-output', 'canary-justification', iso.home]) {
      expect(strings).not.toContain(secret);
    }

    const m = await sink.metrics();
    expect(points(m.get('relvo.turns'))).toEqual([
      { attributes: { 'relvo.turn.outcome': 'completed', 'relvo.profile': 'codex' }, value: 1 },
    ]);
    expect(points(m.get('gen_ai.client.token.usage')).map((p) => p.value)).toEqual([
      expect.objectContaining({ count: 1, sum: usage.inputTokens }),
      expect.objectContaining({ count: 1, sum: usage.outputTokens }),
    ]);
    expect(points(m.get('relvo.interaction.wait.duration'))[0]?.value).toMatchObject({ count: 1 });
    expect(points(m.get('relvo.model.retries'))).toEqual([
      { attributes: { 'error.type': expect.any(String) }, value: 1 },
    ]);
    expect(points(m.get('gen_ai.client.operation.duration'))[0]?.value).toMatchObject({
      count: 1,
    });
    expect(points(m.get('relvo.sessions.live'))).toEqual([{ attributes: {}, value: 0 }]);
    expect(m.has('relvo.store.append.duration')).toBe(true);
  }, 90_000);
});
