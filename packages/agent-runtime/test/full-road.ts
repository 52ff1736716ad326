/**
 * The full road an input may take (capture as JSON, then the whole zod schema), against which
 * the runtime's short roads are judged: a short road must accept nothing the full road refuses
 * and give the same value, frozen.
 */
import { captureJson } from '@relvo-labs/agent-provider';
import fc from 'fast-check';
import { expect } from 'vitest';
import { eventPayloadSchema } from '../src/envelope.js';
import { flatPayload } from '../src/session/flat-payloads.js';

interface Schema<T> {
  safeParse(value: unknown): { success: boolean; data?: T };
}

/** What the full road says about `input`: its value, or undefined where capture or `schema` refuses it. */
export function fullRoad<T>(schema: Schema<T>, input: unknown): T | undefined {
  const captured = captureJson(input);
  if (!captured.ok) return undefined;
  const parsed = schema.safeParse(captured.value);
  return parsed.success ? parsed.data : undefined;
}

/** The full road's verdict on a payload of the runtime's log. */
export const payloadVerdict = (input: unknown): unknown => fullRoad(eventPayloadSchema, input);

export function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

/**
 * Runs the member-by-member road (flatPayload) on `numRuns` inputs from `inputs`: each it takes
 * must come out as the full road's value, `frozen`, and not the input itself. Returns how many
 * it took, so a caller can check the property said something.
 */
export function flatRoadAgrees(
  inputs: fc.Arbitrary<unknown>,
  frozen: (value: unknown) => boolean,
  numRuns: number,
): number {
  let taken = 0;
  fc.assert(
    fc.property(inputs, (input) => {
      const fast = flatPayload(input);
      if (fast === undefined) return;
      taken += 1;
      expect(fast).toEqual(payloadVerdict(input));
      expect(frozen(fast)).toBe(true);
      expect(fast).not.toBe(input);
    }),
    { numRuns },
  );
  return taken;
}
