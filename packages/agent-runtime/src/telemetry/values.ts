/** Small value helpers of the telemetry observer. */
import { ATTRIBUTE_MAX_CHARS } from './names.js';

export type OtelApi = typeof import('@opentelemetry/api');

/** What the spans need of the API: its enums and context helpers. */
export interface OtelParts {
  readonly api: OtelApi;
}

/** `text` cut to `max` UTF-16 units with `…` (never half a surrogate pair). */
export function bounded(text: string, max = ATTRIBUTE_MAX_CHARS): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** An envelope's `occurredAt` as epoch milliseconds. */
export function epochMs(occurredAt: string): number {
  return Date.parse(occurredAt);
}
