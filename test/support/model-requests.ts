/** What a request the scripted model received shows of injected context. */
import type { ContextItem } from '@relvo-labs/agent-provider';
import { expect } from 'vitest';
import { requestInputItems, type RecordedRequest } from '../../src/testing/index.js';

/** The request's messages as `<role>:<content JSON>`, in order. */
export function messageTexts(request: RecordedRequest): string[] {
  return requestInputItems(request)
    .filter((i) => i.type === 'message')
    .map((i) => `${String(i.role)}:${JSON.stringify(i.content)}`);
}

/** A developer note and a user note, the injection `expectNotesBetween` looks for. */
export function twoNotes(developer: string, user: string): ContextItem[] {
  return [
    { type: 'text', role: 'developer', text: developer },
    { type: 'text', role: 'user', text: user },
  ];
}

/**
 * Asserts the order of a request after `twoNotes` were injected between two turns: the earlier
 * turn's input, then the developer note, the user note right after it, then the new input.
 */
export function expectNotesBetween(
  request: RecordedRequest,
  earlier: string,
  notes: readonly ContextItem[],
  next: string,
): void {
  const [developer, user] = notes.map((n) => n.text);
  if (developer === undefined || user === undefined) throw new Error('two notes expected');
  const messages = messageTexts(request);
  const at = (needle: string): number => messages.findIndex((t) => t.includes(needle));
  expect(at(earlier)).toBeGreaterThan(-1);
  expect(at(developer)).toBeGreaterThan(at(earlier));
  expect(messages[at(developer)]).toMatch(/^developer:/);
  expect(at(user)).toBe(at(developer) + 1);
  expect(at(next)).toBeGreaterThan(at(user));
}
