import { z } from 'zod';
import { isJsonObject, isJsonValue, type JsonObject, type JsonValue } from '../json.js';

/*
 * JSON carriers are checked with the docs/spi.md §2 guard instead of a structural zod union:
 * zod rebuilds records and silently drops an own `__proto__` key, which docs/spi.md §2 says
 * must be kept as data. The guard keeps the (already captured) value as-is.
 */
export const jsonValueSchema = z.custom<JsonValue>(isJsonValue, {
  error: 'expected a JSON value',
});

export const jsonObjectSchema = z.custom<JsonObject>(isJsonObject, {
  error: 'expected a JSON object',
});
