/**
 * The telemetry tests' turn on the scripted provider: a tool call, a command approval the host
 * approves, a delta and usage, with canaries in the prompt, the subject and the output.
 */
import { createScriptedProvider, type ScriptStepInput } from '@relvo-labs/agent-provider/testing';
import { createAgentRuntime, type RuntimeTelemetryOptions } from '@relvo-labs/agent-runtime';
import { metrics, trace } from '@opentelemetry/api';
import { expect } from 'vitest';
import { otelSink, type OtelSink } from './otel-sink.js';
import { onCleanup, tempDir, TWO_SCRIPTED_PROFILES } from './support.js';

export const PROMPT = 'please run the canary-prompt-7f3';
const SCRIPT: ScriptStepInput[] = [
  { type: 'tool', toolName: 'shell', phase: 'invoked', detail: { activityId: 'tool-1' } },
  {
    type: 'ask',
    ref: 'a1',
    request: {
      kind: 'approval',
      subject: { category: 'command', summary: 'touch canary-subject-91' },
      allowedModes: ['once'],
      riskHint: 'medium',
    },
  },
  { type: 'tool', toolName: 'shell', phase: 'succeeded', detail: { activityId: 'tool-1' } },
  { type: 'delta', text: 'canary-output-22' },
  { type: 'usage', usage: { inputTokens: 120, outputTokens: 7, totalTokens: 127 } },
  { type: 'succeed' },
];

export function sinkFor(): OtelSink {
  const sink = otelSink();
  onCleanup(() => sink.shutdown());
  return sink;
}

export async function approvedTurn(telemetry: RuntimeTelemetryOptions | undefined) {
  const scripted = createScriptedProvider({ scripts: { [PROMPT]: SCRIPT } });
  const runtime = await createAgentRuntime({
    providers: { scripted: () => scripted.provider },
    config: TWO_SCRIPTED_PROFILES,
    ...(telemetry === undefined ? {} : { telemetry }),
  });
  onCleanup(() => runtime.shutdown().catch(() => undefined));
  const workspace = tempDir('relvo-otel-ws-');
  const session = await runtime.openSession({ workspace });
  const turn = await session.submitTurn({ input: PROMPT });
  scripted.controller.drain();
  const [pending] = session.pendingInteractions();
  await session.respond(pending!.interactionId, {
    kind: 'approval',
    decision: 'approved',
    mode: 'once',
  });
  scripted.controller.drain();
  expect((await turn.done).turnState).toBe('completed');
  await session.close();
  return { runtime, session, turn, workspace };
}

/** Registers the sink's providers as the process's global ones until the test ends. */
export function registerGlobally(sink: OtelSink): void {
  trace.setGlobalTracerProvider(sink.tracerProvider);
  metrics.setGlobalMeterProvider(sink.meterProvider);
  onCleanup(() => {
    trace.disable();
    metrics.disable();
  });
}
