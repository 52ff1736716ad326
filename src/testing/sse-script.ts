/**
 * Scripted Responses-API steps and their translation into SSE event plans. The event shapes
 * are the ones measured to work against codex 0.156.1 (docs/testing.md §4).
 */

export interface ScriptedUsage {
  readonly input_tokens: number;
  readonly input_tokens_details: { readonly cached_tokens: number };
  readonly output_tokens: number;
  readonly output_tokens_details: { readonly reasoning_tokens: number };
  readonly total_tokens: number;
}

export type SseEvent = Readonly<Record<string, unknown>> & { readonly type: string };

/** How a streamed response ends after its events. */
export const STREAM_ENDINGS = ['end', 'destroy', 'stall'] as const;
export type StreamEnding = (typeof STREAM_ENDINGS)[number];

export interface TextStep {
  readonly kind: 'text';
  readonly deltas: readonly string[];
  readonly itemId?: string;
  readonly responseId?: string;
  /** null: send `response.completed` without usage. */
  readonly usage?: ScriptedUsage | null;
  /** Wait before each delta (slow stream). */
  readonly delayMs?: number;
  /** Drop the connection after this many deltas (mid-stream close). */
  readonly closeAfterDeltas?: number;
  /** Send this many deltas, then nothing more until the client or the server closes. */
  readonly stallAfterDeltas?: number;
  /** Extra response headers (e.g. codex's `x-codex-primary-used-percent` rate-limit headers). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface FunctionCallStep {
  readonly kind: 'functionCall';
  readonly name: string;
  readonly callId: string;
  readonly arguments: string | Readonly<Record<string, unknown>>;
  /** The tool's namespace: an MCP server's tools are called as `mcp__<server>` + the tool name. */
  readonly namespace?: string;
  readonly itemId?: string;
  readonly responseId?: string;
  readonly usage?: ScriptedUsage | null;
  /** Wait before the response starts (the server's `sleep`: a test can hold the model here). */
  readonly delayMs?: number;
}

export interface HttpErrorStep {
  readonly kind: 'httpError';
  readonly status: number;
  readonly body?: string | Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface RawStep {
  readonly kind: 'raw';
  readonly events: readonly SseEvent[];
  readonly ending?: StreamEnding;
  readonly delayMs?: number;
}

export type ScriptedStep = TextStep | FunctionCallStep | HttpErrorStep | RawStep;

export interface SsePlan {
  readonly events: readonly SseEvent[];
  readonly ending: StreamEnding;
  /** Delay before each event whose type is in `delayedTypes` (all when undefined). */
  readonly delayMs: number;
  readonly delayedTypes?: ReadonlySet<string>;
  readonly headers?: Readonly<Record<string, string>>;
}

let counter = 0;
const nextId = (prefix: string): string => `${prefix}_${(++counter).toString(36)}`;

/** Usage whose total is the sum of input and output, as the API reports it. */
export function scriptedUsage(input = 100, output = 7, cached = 20, reasoning = 3): ScriptedUsage {
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output,
  };
}

function completed(responseId: string, usage: ScriptedUsage | null | undefined): SseEvent {
  const u = usage === undefined ? scriptedUsage() : usage;
  return {
    type: 'response.completed',
    response: u === null ? { id: responseId } : { id: responseId, usage: u },
  };
}

function textPlan(step: TextStep): SsePlan {
  const responseId = step.responseId ?? nextId('resp');
  const itemId = step.itemId ?? nextId('msg');
  const head: SseEvent[] = [
    { type: 'response.created', response: { id: responseId } },
    {
      type: 'response.output_item.added',
      output_index: 0,
      item: { type: 'message', role: 'assistant', id: itemId, status: 'in_progress', content: [] },
    },
  ];
  const deltas: SseEvent[] = step.deltas.map((delta) => ({
    type: 'response.output_text.delta',
    item_id: itemId,
    output_index: 0,
    content_index: 0,
    delta,
  }));
  const delayMs = step.delayMs ?? 0;
  const delayedTypes = new Set(['response.output_text.delta']);
  // a stream cut after some deltas: the connection destroyed, or left open and silent
  const cut = (after: number, ending: 'destroy' | 'stall') => ({
    events: [...head, ...deltas.slice(0, after)],
    ending,
    delayMs,
    delayedTypes,
  });
  const headers = step.headers === undefined ? {} : { headers: step.headers };
  if (step.closeAfterDeltas !== undefined) return cut(step.closeAfterDeltas, 'destroy');
  if (step.stallAfterDeltas !== undefined) return cut(step.stallAfterDeltas, 'stall');
  const text = step.deltas.join('');
  const done: SseEvent = {
    type: 'response.output_item.done',
    output_index: 0,
    item: {
      type: 'message',
      role: 'assistant',
      id: itemId,
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    },
  };
  return {
    events: [...head, ...deltas, done, completed(responseId, step.usage)],
    ending: 'end',
    delayMs,
    delayedTypes,
    ...headers,
  };
}

function functionCallPlan(step: FunctionCallStep): SsePlan {
  const responseId = step.responseId ?? nextId('resp');
  const itemId = step.itemId ?? nextId('fc');
  const args = typeof step.arguments === 'string' ? step.arguments : JSON.stringify(step.arguments);
  const item = {
    type: 'function_call',
    id: itemId,
    call_id: step.callId,
    ...(step.namespace === undefined ? {} : { namespace: step.namespace }),
    name: step.name,
  };
  return {
    events: [
      { type: 'response.created', response: { id: responseId } },
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { ...item, arguments: '', status: 'in_progress' },
      },
      {
        type: 'response.output_item.done',
        output_index: 0,
        item: { ...item, arguments: args, status: 'completed' },
      },
      completed(responseId, step.usage),
    ],
    ending: 'end',
    delayMs: step.delayMs ?? 0,
    delayedTypes: new Set(['response.created']),
  };
}

/** The SSE events a streamed step sends; HTTP error steps have no plan. */
export function planFor(step: TextStep | FunctionCallStep | RawStep): SsePlan {
  switch (step.kind) {
    case 'text':
      return textPlan(step);
    case 'functionCall':
      return functionCallPlan(step);
    case 'raw':
      return { events: step.events, ending: step.ending ?? 'end', delayMs: step.delayMs ?? 0 };
  }
}

/** One SSE frame as codex expects it: named event plus JSON data with the same type. */
export function encodeSseEvent(event: SseEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

// Step builders: the shapes tests write most often.

export function textStep(
  deltas: string | readonly string[],
  options: Omit<TextStep, 'kind' | 'deltas'> = {},
): TextStep {
  return { kind: 'text', deltas: typeof deltas === 'string' ? [deltas] : deltas, ...options };
}

export interface ExecCommandOptions {
  readonly callId?: string;
  /** Ask to run outside the sandbox; under on-request this triggers an approval. */
  readonly escalate?: boolean;
  readonly justification?: string;
  readonly usage?: ScriptedUsage | null;
}

export function execCommandStep(cmd: string, options: ExecCommandOptions = {}): FunctionCallStep {
  const args: Record<string, unknown> = { cmd };
  if (options.escalate === true) args.sandbox_permissions = 'require_escalated';
  if (options.justification !== undefined) args.justification = options.justification;
  return {
    kind: 'functionCall',
    name: 'exec_command',
    callId: options.callId ?? nextId('call_exec'),
    arguments: args,
    ...(options.usage === undefined ? {} : { usage: options.usage }),
  };
}

export function functionCallStep(
  name: string,
  args: string | Readonly<Record<string, unknown>>,
  options: Omit<FunctionCallStep, 'kind' | 'name' | 'arguments' | 'callId'> & {
    readonly callId?: string;
  } = {},
): FunctionCallStep {
  const { callId, ...rest } = options;
  return { kind: 'functionCall', name, arguments: args, callId: callId ?? nextId('call'), ...rest };
}

/** The model calls `tool` of the MCP server configured as `server` (codex 0.171.0 namespaces). */
export function mcpToolCallStep(
  server: string,
  tool: string,
  args: Readonly<Record<string, unknown>> = {},
  options: { readonly callId?: string } = {},
): FunctionCallStep {
  return functionCallStep(tool, args, { ...options, namespace: `mcp__${server}` });
}

/**
 * The model asks for more sandbox access (`request_permissions`; codex offers the tool only with
 * `features.request_permissions_tool=true`, which `permissions: 'bridge'` turns on).
 */
export function requestPermissionsStep(
  permissions: {
    readonly file_system?: {
      readonly read?: readonly string[];
      readonly write?: readonly string[];
    };
    readonly network?: { readonly enabled: boolean };
  },
  reason: string,
  options: { readonly callId?: string } = {},
): FunctionCallStep {
  return functionCallStep('request_permissions', { permissions, reason }, options);
}

export function httpErrorStep(
  status: number,
  body: HttpErrorStep['body'] = { error: { message: `scripted status ${status}` } },
  headers: Readonly<Record<string, string>> = {},
): HttpErrorStep {
  return { kind: 'httpError', status, body, headers };
}

export function responseFailedStep(
  code = 'server_error',
  message = 'scripted response.failed',
): RawStep {
  const id = nextId('resp');
  return {
    kind: 'raw',
    events: [
      { type: 'response.created', response: { id } },
      { type: 'response.failed', response: { id, error: { code, message } } },
    ],
  };
}

export function rawStep(
  events: readonly SseEvent[],
  ending: StreamEnding = 'end',
  delayMs = 0,
): RawStep {
  return { kind: 'raw', events, ending, delayMs };
}
