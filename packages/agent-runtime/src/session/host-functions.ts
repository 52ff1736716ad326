/**
 * Host tools bound to host functions (`createAgentRuntime({ toolFunctions })`): a `tool_call`
 * interaction whose tool has a function is answered by calling it, through the same path as a
 * person's answer (validated, recorded in the log, then handed to the provider). A tool without
 * a function is left for the host to answer like any interaction.
 */
import {
  toolOutputSchema,
  type JsonValue,
  type ToolCallRequest,
  type ToolOutput,
} from '@relvo-labs/agent-provider';

/** What a bound function is told besides the input, which its tool's schema has already checked. */
export interface HostToolCallContext {
  readonly sessionId: string;
  readonly tool: string;
  /** Aborted when the call is settled without the function's output (expiry, run end). */
  readonly signal: AbortSignal;
}

/**
 * A host function: its output (text, JSON or a typed failure) is what the model reads. A throw
 * or an output that does not parse is answered as a failure (`failed`, no message: an error's
 * text is the host's, not the model's).
 */
export type HostToolFunction = (
  input: JsonValue,
  context: HostToolCallContext,
) => ToolOutput | Promise<ToolOutput>;

export type HostToolFunctions = Readonly<Record<string, HostToolFunction>>;

const FAILED: ToolOutput = { type: 'failure', code: 'failed' };

/** The function's output checked against the SPI's bounds; anything else a bare failure. */
async function outputOf(
  fn: HostToolFunction,
  request: ToolCallRequest,
  context: HostToolCallContext,
): Promise<ToolOutput> {
  try {
    const parsed = toolOutputSchema.safeParse(await fn(request.input, context));
    return parsed.success ? parsed.data : FAILED;
  } catch {
    return FAILED;
  }
}

/**
 * Calls the bound function of `request`'s tool, if any, and answers with its output; true when
 * one was bound. `answer` is the lifecycle's `respond`: an answer that lost the race (an expiry,
 * the run's end) is refused there and dropped here.
 */
export function callBoundFunction(
  functions: HostToolFunctions | undefined,
  sessionId: string,
  request: ToolCallRequest,
  answer: (output: ToolOutput) => Promise<void>,
  settled: AbortSignal,
): boolean {
  const fn =
    functions !== undefined && Object.hasOwn(functions, request.tool)
      ? functions[request.tool]
      : undefined;
  if (fn === undefined) return false;
  const context: HostToolCallContext = { sessionId, tool: request.tool, signal: settled };
  void outputOf(fn, request, context).then((output) =>
    settled.aborted ? undefined : answer(output).catch(() => undefined),
  );
  return true;
}
