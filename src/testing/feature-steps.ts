/**
 * Steps that make codex produce plans and reasoning: an `update_plan` call (offered only under
 * `-c tools.update_plan.enabled=true`) and a response whose first output item is a reasoning
 * item streaming its summary and, optionally, raw reasoning text (which codex must not be
 * seen to publish through this provider).
 */
import {
  functionCallStep,
  rawStep,
  scriptedUsage,
  type FunctionCallStep,
  type RawStep,
  type SseEvent,
} from './sse-script.js';

export interface ScriptedPlanStep {
  readonly step: string;
  readonly status: 'pending' | 'in_progress' | 'completed';
}

export function updatePlanStep(
  plan: readonly ScriptedPlanStep[],
  options: { readonly explanation?: string; readonly callId?: string } = {},
): FunctionCallStep {
  const args: Record<string, unknown> = { plan };
  if (options.explanation !== undefined) args.explanation = options.explanation;
  return functionCallStep('update_plan', args, options.callId ? { callId: options.callId } : {});
}

export interface ReasoningStepOptions {
  /** Raw reasoning text streamed as `response.reasoning_text.delta`. */
  readonly raw?: string;
  /** The answer that follows the reasoning item. */
  readonly answer?: string;
  readonly responseId?: string;
  readonly reasoningId?: string;
}

/** A reasoning item with one summary part per entry of `summary`, then an answer message. */
export function reasoningStep(
  summary: readonly string[],
  options: ReasoningStepOptions = {},
): RawStep {
  const id = options.reasoningId ?? 'rs_scripted';
  const responseId = options.responseId ?? 'resp_reasoning';
  const answer = options.answer ?? 'answer';
  const events: SseEvent[] = [
    { type: 'response.created', response: { id: responseId } },
    {
      type: 'response.output_item.added',
      output_index: 0,
      item: { type: 'reasoning', id, summary: [] },
    },
  ];
  summary.forEach((text, index) => {
    const at = { item_id: id, output_index: 0, summary_index: index };
    events.push(
      {
        type: 'response.reasoning_summary_part.added',
        ...at,
        part: { type: 'summary_text', text: '' },
      },
      { type: 'response.reasoning_summary_text.delta', ...at, delta: text },
      { type: 'response.reasoning_summary_text.done', ...at, text },
      { type: 'response.reasoning_summary_part.done', ...at, part: { type: 'summary_text', text } },
    );
  });
  if (options.raw !== undefined) {
    events.push({
      type: 'response.reasoning_text.delta',
      item_id: id,
      output_index: 0,
      content_index: 0,
      delta: options.raw,
    });
  }
  const message = { type: 'message', role: 'assistant', id: `${id}_msg` };
  events.push(
    {
      type: 'response.output_item.done',
      output_index: 0,
      item: {
        type: 'reasoning',
        id,
        summary: summary.map((text) => ({ type: 'summary_text', text })),
        ...(options.raw !== undefined
          ? { content: [{ type: 'reasoning_text', text: options.raw }] }
          : {}),
      },
    },
    {
      type: 'response.output_item.added',
      output_index: 1,
      item: { ...message, status: 'in_progress', content: [] },
    },
    {
      type: 'response.output_text.delta',
      item_id: message.id,
      output_index: 1,
      content_index: 0,
      delta: answer,
    },
    {
      type: 'response.output_item.done',
      output_index: 1,
      item: {
        ...message,
        status: 'completed',
        content: [{ type: 'output_text', text: answer, annotations: [] }],
      },
    },
    {
      type: 'response.completed',
      response: { id: responseId, usage: scriptedUsage(100, 30, 0, 20) },
    },
  );
  return rawStep(events);
}
