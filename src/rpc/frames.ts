/**
 * Strict classification of one decoded inbound frame (docs/behaviour.md §4.3). Pure: it reads
 * own members only and never throws, so inherited or prototype-polluted members cannot turn a
 * frame into a reply.
 */
import { z } from 'zod';

import { requestIdSchema, type CodexRequestId } from '../protocol/wire.js';

/** Why a frame could not be classified; the detail of an `unclassifiable` drop. */
// prettier-ignore
export type UnclassifiableReason =
  | 'not_object' | 'bad_method' | 'no_method_or_id' | 'method_with_reply' | 'bad_id' | 'id_only'
  | 'result_and_error' | 'bad_error_body' | 'unreadable';

type RequestId = CodexRequestId;

/** A wire error body: numeric code and string message; `data` and unknown members tolerated. */
export const wireErrorSchema = z.looseObject({
  code: z.number(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type WireError = z.infer<typeof wireErrorSchema>;

export type ClassifiedFrame =
  | {
      readonly kind: 'request';
      readonly id: RequestId;
      readonly method: string;
      readonly params: unknown;
    }
  | { readonly kind: 'notification'; readonly method: string; readonly params: unknown }
  | { readonly kind: 'response'; readonly id: RequestId; readonly result: unknown }
  | { readonly kind: 'error'; readonly id: RequestId; readonly error: WireError }
  | { readonly kind: 'unclassifiable'; readonly reason: UnclassifiableReason };

function unclassifiable(reason: UnclassifiableReason): ClassifiedFrame {
  return { kind: 'unclassifiable', reason };
}

function own(frame: object, key: string): unknown {
  return Object.hasOwn(frame, key) ? (frame as Record<string, unknown>)[key] : undefined;
}

export function isRequestId(value: unknown): value is RequestId {
  return requestIdSchema.safeParse(value).success;
}

/**
 * Classifies by which own members are present; a `jsonrpc` member is ignored. Total: a frame
 * whose members cannot be read (a throwing getter or proxy from a host transport) is
 * `unreadable`.
 */
export function classifyFrame(frame: unknown): ClassifiedFrame {
  try {
    return classifyOwnMembers(frame);
  } catch {
    return unclassifiable('unreadable');
  }
}

function classifyOwnMembers(frame: unknown): ClassifiedFrame {
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
    return unclassifiable('not_object');
  }
  const hasMethod = Object.hasOwn(frame, 'method');
  const hasId = Object.hasOwn(frame, 'id');
  const hasResult = Object.hasOwn(frame, 'result');
  const hasError = Object.hasOwn(frame, 'error');
  const id = own(frame, 'id');
  const params = own(frame, 'params');

  if (hasMethod) {
    const method = own(frame, 'method');
    if (typeof method !== 'string' || method.length === 0) return unclassifiable('bad_method');
    if (hasResult || hasError) return unclassifiable('method_with_reply');
    if (!hasId) return { kind: 'notification', method, params };
    if (!isRequestId(id)) return unclassifiable('bad_id');
    return { kind: 'request', id, method, params };
  }

  if (!hasId) return unclassifiable('no_method_or_id');
  if (!isRequestId(id)) return unclassifiable('bad_id');
  if (hasResult && hasError) return unclassifiable('result_and_error');
  if (hasResult) return { kind: 'response', id, result: own(frame, 'result') };
  if (!hasError) return unclassifiable('id_only');

  const body = own(frame, 'error');
  // Arrays and inherited members must not satisfy the body shape.
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return unclassifiable('bad_error_body');
  }
  const code = own(body, 'code');
  const message = own(body, 'message');
  if (typeof code !== 'number' || !Number.isFinite(code) || typeof message !== 'string') {
    return unclassifiable('bad_error_body');
  }
  const parsed = wireErrorSchema.safeParse(
    Object.hasOwn(body, 'data') ? { code, message, data: own(body, 'data') } : { code, message },
  );
  if (!parsed.success) return unclassifiable('bad_error_body');
  return { kind: 'error', id, error: parsed.data };
}
