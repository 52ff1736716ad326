/** Checks of what a host passes to `openSession` and `readEvents`, before anything is done. */
import { captureJson, jsonObjectSchema, type JsonObject } from '@relvo-labs/agent-provider';
import { RuntimeError } from './errors.js';
import type { ReadEventsOptions } from './runtime-api.js';

/** Session metadata: a JSON object, captured (copied) so later changes by the host are not seen. */
export function parseMetadata(metadata: JsonObject | undefined): JsonObject | undefined {
  if (metadata === undefined) return undefined;
  const captured = captureJson(metadata);
  const parsed = captured.ok ? jsonObjectSchema.safeParse(captured.value) : undefined;
  if (parsed?.success !== true) {
    throw new RuntimeError(
      'invalid_request',
      'config_invalid',
      'session metadata must be a JSON object',
    );
  }
  return parsed.data;
}

export function checkCursor(opts: ReadEventsOptions): { fromSequence: number; limit: number } {
  const fromSequence = opts.fromSequence ?? 1;
  const limit = opts.limit ?? 1000;
  if (
    !Number.isSafeInteger(fromSequence) ||
    fromSequence < 1 ||
    !Number.isSafeInteger(limit) ||
    limit < 1
  ) {
    throw new RuntimeError(
      'cursor_out_of_range',
      'cursor_out_of_range',
      'fromSequence and limit must be positive integers',
    );
  }
  return { fromSequence, limit };
}
