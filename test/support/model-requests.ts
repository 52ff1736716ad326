/** What a request the scripted model received shows of injected context. */
import { expect } from 'vitest';
import { requestInputItems, type RecordedRequest } from '../../src/testing/index.js';

/** The request's messages as `<role>:<content JSON>`, in order. */
export function messageTexts(request: RecordedRequest): string[] {
  return requestInputItems(request)
    .filter((i) => i.type === 'message')
    .map((i) => `${String(i.role)}:${JSON.stringify(i.content)}`);
}

/**
 * Asserts the order of a request after an injection between two turns: the earlier turn's
 * input, then the injected developer note, the injected user note right after it, then the new
 * turn's input.
 */
export function expectNotesBetween(
  request: RecordedRequest,
  texts: {
    readonly earlier: string;
    readonly developer: string;
    readonly user: string;
    readonly next: string;
  },
): void {
  const messages = messageTexts(request);
  const at = (needle: string): number => messages.findIndex((t) => t.includes(needle));
  expect(at(texts.earlier)).toBeGreaterThan(-1);
  expect(at(texts.developer)).toBeGreaterThan(at(texts.earlier));
  expect(messages[at(texts.developer)]).toMatch(/^developer:/);
  expect(at(texts.user)).toBe(at(texts.developer) + 1);
  expect(at(texts.next)).toBeGreaterThan(at(texts.user));
}
