/**
 * Interaction requests publish upstream text (approval subjects, question prose); the
 * credential redactor (docs/behaviour.md §10.5) is the backstop for them. Redaction only shortens
 * text, so every bound the request was checked against still holds.
 */
import type { ProviderEventInput } from '@relvo-labs/agent-provider';
import { redact } from '../shared/redact.js';

/** Deep copy with every string passed through the redactor. */
function redactStrings(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(redactStrings);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v)]));
  }
  return value;
}

export function redactInteraction(event: ProviderEventInput): ProviderEventInput {
  if (event.payload.type !== 'interaction.requested') return event;
  return {
    payload: {
      ...event.payload,
      request: redactStrings(event.payload.request) as typeof event.payload.request,
    },
  };
}
