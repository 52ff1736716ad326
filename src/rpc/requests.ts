/**
 * `request()` typed by the outbound map (`src/protocol/outbound.ts`): params typed in, the reply
 * checked against its schema and typed out. A reply that fails its schema is a `CodexRpcError`
 * `reply_invalid` (codex answered, so the effect is unknown, never an untyped value); wire
 * errors, timeouts and aborts are the client's own (`client.ts`).
 */
import {
  OUTBOUND,
  type OutboundMethod,
  type OutboundParams,
  type OutboundResult,
} from '../protocol/outbound.js';
import type { RequestOptions } from './client-types.js';
import { CodexRpcError } from './errors.js';

/** The untyped request of the JSON-RPC client. */
export type RawRequest = (
  method: string,
  params: unknown,
  options?: RequestOptions,
) => Promise<unknown>;

/** A request of the outbound map: its params, its checked reply. */
export type TypedRequest = <Method extends OutboundMethod>(
  method: Method,
  params: OutboundParams<Method>,
  options?: RequestOptions,
) => Promise<OutboundResult<Method>>;

/** Sends through `raw` and checks the reply; the server's text is never echoed. */
export async function checkedRequest<Method extends OutboundMethod>(
  raw: RawRequest,
  method: Method,
  params: OutboundParams<Method>,
  options?: RequestOptions,
): Promise<OutboundResult<Method>> {
  const reply = await raw(method, params, options);
  const checked = OUTBOUND[method].result.safeParse(reply);
  if (!checked.success) {
    throw new CodexRpcError('reply_invalid', `codex answered ${method} unusably`);
  }
  // the map's entry for `method` parsed it: its output type is this method's result
  return checked.data as OutboundResult<Method>;
}

/** Whether `error` is a reply that failed its schema. */
export function isReplyInvalid(error: unknown): boolean {
  return error instanceof CodexRpcError && error.providerCode === 'reply_invalid';
}
