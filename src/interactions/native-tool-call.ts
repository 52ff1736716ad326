/**
 * `item/tool/call` (docs/behaviour.md §9.11): the model called a host tool. Strict parse, the
 * input checked against the tool's schema (codex checks nothing: measured on 0.171.0), then a
 * neutral `tool_call` interaction whose answer becomes `{contentItems, success}`. An input that
 * fails never reaches the host: codex is answered a failure the model reads.
 */
import { z } from 'zod';
import {
  canonicalJson,
  HOST_TOOL_BOUNDS,
  interactionResponseSchema,
  captureJson,
  type ToolCallRequest,
  type ToolOutput,
} from '@relvo-labs/agent-provider';
import { bridged, type BridgeRefusal, type BridgeTranslation } from './bridged.js';
import type { HostToolSet } from './host-tools.js';
import { rejection, SETTLEMENT_MESSAGES, type SettlementPlan } from './settlement.js';

/**
 * Why a host tool's call never reached the host; codex is answered a failure the model reads
 * (docs/behaviour.md §9.11), not an error.
 */
export type ToolCallRefusalToken =
  BridgeRefusal | 'unknown_tool' | 'invalid_input' | 'namespace_unsupported';

const nonEmpty = z.string().min(1);

const toolCallParamsSchema = z.object({
  threadId: nonEmpty,
  turnId: nonEmpty,
  callId: nonEmpty,
  namespace: z.string().nullable().optional(),
  tool: nonEmpty,
  arguments: z.unknown(),
});

/** What codex reads back: the model gets the text; `success` only colours codex's own item. */
export interface NativeToolCallReply {
  readonly contentItems: readonly { readonly type: 'inputText'; readonly text: string }[];
  readonly success: boolean;
}

const reply = (text: string, success: boolean): NativeToolCallReply => ({
  contentItems: [{ type: 'inputText', text }],
  success,
});

/**
 * Measured: codex does not tell the model that a call failed (`success: false` reaches it as the
 * bare text), so a failure says so in its text.
 */
function failureText(output: Extract<ToolOutput, { type: 'failure' }>): string {
  const head = `host tool failed (${output.code})`;
  return output.message === undefined ? head : `${head}: ${output.message}`;
}

export function nativeToolCallReply(output: ToolOutput): NativeToolCallReply {
  switch (output.type) {
    case 'text':
      return reply(output.text, true);
    case 'json':
      return reply(JSON.stringify(output.value), true);
    case 'failure':
      return reply(failureText(output), false);
  }
}

/** Sent when the call is retired unanswered (interrupt, run end, disposal). */
export const TOOL_CALL_RELEASE = reply(
  'host tool failed (cancelled): nobody answered the call',
  false,
);

const refuse = (token: ToolCallRefusalToken, text: string): BridgeTranslation => ({
  ok: false,
  token,
  reply: reply(text, false),
});

export function planToolCallSettlement(response: unknown): SettlementPlan<NativeToolCallReply> {
  const parsed = interactionResponseSchema.safeParse(response);
  if (!parsed.success) {
    return { ok: false, rejection: rejection('invalid_request', SETTLEMENT_MESSAGES.malformed) };
  }
  const r = parsed.data;
  if (r.kind !== 'tool_call') {
    return {
      ok: false,
      rejection: rejection('capability_unsupported', SETTLEMENT_MESSAGES.toolCallKindOnly, {
        supported: ['tool_call'],
      }),
    };
  }
  // a parsed output is plain JSON; canonical so a redelivery with reordered keys is the same
  const captured = captureJson(r.output);
  return {
    ok: true,
    appliedKey: captured.ok ? canonicalJson(captured.value) : JSON.stringify(r.output),
    nativeResult: nativeToolCallReply(r.output),
  };
}

export function translateToolCall(params: unknown, tools: HostToolSet): BridgeTranslation {
  const parsed = toolCallParamsSchema.safeParse(params);
  const captured = parsed.success ? captureJson(parsed.data.arguments) : undefined;
  if (!parsed.success || captured?.ok !== true) return { ok: false, token: 'malformed' };
  const p = parsed.data;
  const input = captured.value;
  // the adapter declares plain functions only; a namespaced call is not one of them
  if (p.namespace !== null && p.namespace !== undefined) {
    return refuse('namespace_unsupported', 'this tool is not offered by the host');
  }
  if (JSON.stringify(input).length > HOST_TOOL_BOUNDS.input) {
    return refuse('detail_too_large', 'the input is too large for a host tool');
  }
  const checked = tools.check(p.tool, input);
  if (!checked.ok) return refuse(checked.token, checked.text);
  const request: ToolCallRequest = { kind: 'tool_call', tool: p.tool, input: checked.input };
  return bridged(
    request,
    { threadId: p.threadId, turnId: p.turnId },
    planToolCallSettlement,
    TOOL_CALL_RELEASE,
  );
}
