/**
 * The capability table of one release (ADR-0042): for each optional feature, its needs
 * (src/capabilities/features.ts) and those the release's generated JSON Schema does not declare.
 * A pure function of the schema tree, so the review writes it and the report refresh recomputes
 * it; src/capabilities/releases.ts is generated from the reports (scripts/capabilities-map.ts).
 */
import {
  capabilityTableSchema,
  CODEX_FEATURE_NEEDS,
  CODEX_FEATURES,
  type CapabilityTable,
} from '../../../src/capabilities/features.js';
import { responseOf, type ProtocolSurface } from './protocol-surface.js';

type Schema = Record<string, unknown>;

const isObj = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const refKey = (ref: string): string => ref.replace(/^#\/definitions\//, '');

/** The params definition key of a method in any of the release's unions, or undefined. */
function paramsOf(surface: ProtocolSurface, method: string): string | undefined {
  return (
    surface.clientRequests[method] ??
    surface.serverRequests[method] ??
    surface.notifications[method] ??
    (surface.clientNotifications.includes(method) ? '' : undefined)
  );
}

/** `def` with `$ref`s followed; a missing target is undefined. */
function resolve(surface: ProtocolSurface, value: unknown, depth = 0): Schema | undefined {
  if (!isObj(value) || depth > 8) return undefined;
  const ref = value.$ref;
  if (typeof ref === 'string') return resolve(surface, surface.definitions[refKey(ref)], depth + 1);
  return value;
}

/** Every object variant of a definition: itself and its oneOf/anyOf/allOf branches, flattened. */
function variantsOf(surface: ProtocolSurface, value: unknown, depth = 0): Schema[] {
  const schema = resolve(surface, value);
  if (schema === undefined || depth > 8) return [];
  const branches = ['oneOf', 'anyOf', 'allOf'].flatMap((k) =>
    Array.isArray(schema[k]) ? (schema[k] as unknown[]) : [],
  );
  return [schema, ...branches.flatMap((b) => variantsOf(surface, b, depth + 1))];
}

/** The property `field` as declared by each variant (followed through `$ref`). */
function propertyOf(surface: ProtocolSurface, def: string, field: string): Schema[] {
  return variantsOf(surface, surface.definitions[def])
    .map((v) => (isObj(v.properties) ? v.properties[field] : undefined))
    .filter((p) => p !== undefined)
    .map((p) => resolve(surface, p) ?? {});
}

const carriesValue = (property: Schema, value: string): boolean =>
  property.const === value || (Array.isArray(property.enum) && property.enum.includes(value));

/** A need read back: its method, whether it is about the result, its field and value. */
export function parseNeed(need: string): {
  method: string;
  result: boolean;
  field?: string;
  value?: string;
} {
  // method names hold `/` but never `.`, `:` or `=`
  const cut = need.search(/[.:]/);
  if (cut < 0) return { method: need, result: false };
  const result = need.startsWith(':result.', cut);
  const [field = '', value] = need.slice(cut + (result ? ':result.'.length : 1)).split('=');
  return { method: need.slice(0, cut), result, field, ...(value === undefined ? {} : { value }) };
}

/** Whether the release's schema declares one need (grammar in src/capabilities/features.ts). */
export function declares(surface: ProtocolSurface, need: string): boolean {
  const { method, result, field, value } = parseNeed(need);
  const params = paramsOf(surface, method);
  if (params === undefined) return false;
  if (field === undefined) return true;
  const def = result ? responseOf(surface, params) : params;
  if (def === undefined || def === '') return false;
  const declared = propertyOf(surface, def, field);
  return value === undefined
    ? declared.length > 0
    : declared.some((p) => variantsOf(surface, p).some((v) => carriesValue(v, value)));
}

/** The release's capability table, features in the order they are declared. */
export function capabilitiesOf(surface: ProtocolSurface): CapabilityTable {
  return capabilityTableSchema.parse(
    Object.fromEntries(
      CODEX_FEATURES.map((feature) => {
        const needs: readonly string[] = CODEX_FEATURE_NEEDS[feature];
        return [feature, { needs, missing: needs.filter((n) => !declares(surface, n)) }];
      }),
    ),
  );
}

/** Features whose needs the release's schema all declares. */
export const carriedFeatures = (table: CapabilityTable): string[] =>
  Object.entries(table)
    .filter(([, check]) => check.missing.length === 0)
    .map(([feature]) => feature);
