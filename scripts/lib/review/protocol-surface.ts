/**
 * The part of a release's generated JSON Schema the adapter reads or writes: the params and
 * responses of the methods it sends, the notifications it reads, the server requests it answers
 * (all of them, by method), and every definition reachable from those. Apart from
 * `schema-diff.ts`, which compares two surfaces; the capability map and the report read a
 * surface without diffing it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CODEX_BRIDGED_APPROVAL,
  CODEX_BRIDGED_FILE_CHANGE,
  CODEX_BRIDGED_QUESTION,
  CODEX_CLIENT_METHOD,
} from '../../../src/protocol/wire-names.js';
import { INBOUND_METHODS } from '../../../src/protocol/inbound.js';

export type Schema = Record<string, unknown>;

const { initialized, ...clientRequests } = CODEX_CLIENT_METHOD;

/**
 * What the adapter sends, reads and answers, taken from its wire names so that a method
 * the adapter starts to use is reviewed from then on.
 */
export const ADAPTER_SURFACE: {
  readonly clientRequests: readonly string[];
  readonly clientNotifications: readonly string[];
  readonly notifications: readonly string[];
  /** Server requests whose params the adapter parses and whose result it writes. */
  readonly bridgedServerRequests: readonly string[];
} = {
  clientRequests: Object.values(clientRequests),
  clientNotifications: [initialized],
  notifications: [...INBOUND_METHODS],
  bridgedServerRequests: [
    CODEX_BRIDGED_APPROVAL,
    CODEX_BRIDGED_QUESTION,
    CODEX_BRIDGED_FILE_CHANGE,
  ],
};

export interface ProtocolSurface {
  /** method → params definition key, per union. */
  readonly clientRequests: Readonly<Record<string, string>>;
  readonly clientNotifications: readonly string[];
  readonly serverRequests: Readonly<Record<string, string>>;
  readonly notifications: Readonly<Record<string, string>>;
  readonly definitions: Readonly<Record<string, Schema>>;
}

export const isObj = (v: unknown): v is Schema =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function flatten(defs: Schema, prefix: string, out: Record<string, Schema>): void {
  for (const [name, value] of Object.entries(defs)) {
    if (!isObj(value)) continue;
    // `v2` is a namespace of definitions, not a type
    if (prefix === '' && name === 'v2' && !('type' in value) && !('$ref' in value)) {
      flatten(value, 'v2/', out);
    } else {
      out[`${prefix}${name}`] = value;
    }
  }
}

export const refKey = (ref: string): string => ref.replace(/^#\/definitions\//, '');

function methodsOf(union: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const variant of asArray(isObj(union) ? (union.oneOf ?? union.anyOf) : undefined)) {
    if (!isObj(variant) || !isObj(variant.properties)) continue;
    const method = asArray((variant.properties.method as Schema | undefined)?.enum)[0];
    const params = (variant.properties.params as Schema | undefined)?.$ref;
    if (typeof method === 'string') out[method] = typeof params === 'string' ? refKey(params) : '';
  }
  return out;
}

/** Reads `json/codex_app_server_protocol.schemas.json` of a generated (or checked-in) tree. */
export function loadSurface(jsonDir: string): ProtocolSurface {
  const bundle = JSON.parse(
    readFileSync(join(jsonDir, 'codex_app_server_protocol.schemas.json'), 'utf8'),
  ) as Schema;
  const definitions: Record<string, Schema> = {};
  flatten(isObj(bundle.definitions) ? bundle.definitions : {}, '', definitions);
  return {
    clientRequests: methodsOf(definitions.ClientRequest),
    clientNotifications: Object.keys(methodsOf(definitions.ClientNotification)),
    serverRequests: methodsOf(definitions.ServerRequest),
    notifications: methodsOf(definitions.ServerNotification),
    definitions,
  };
}

/** The result definition of a method whose params are `<Name>Params`: `<Name>Response`. */
export function responseOf(surface: ProtocolSurface, params: string): string | undefined {
  if (!params.endsWith('Params')) return undefined;
  const name = `${params.slice(0, -'Params'.length)}Response`;
  const bare = name.replace(/^v2\//, '');
  return [name, bare, `v2/${bare}`].find((k) => k in surface.definitions);
}

/** The definition keys the adapter's frames start from. */
export function adapterRoots(surface: ProtocolSurface): string[] {
  const roots: string[] = [];
  const withResponse = (params: string | undefined): void => {
    if (params === undefined || params === '') return;
    roots.push(params);
    const response = responseOf(surface, params);
    if (response !== undefined) roots.push(response);
  };
  for (const m of ADAPTER_SURFACE.clientRequests) withResponse(surface.clientRequests[m]);
  for (const m of ADAPTER_SURFACE.bridgedServerRequests) withResponse(surface.serverRequests[m]);
  for (const m of ADAPTER_SURFACE.notifications) {
    const params = surface.notifications[m];
    if (params !== undefined && params !== '') roots.push(params);
  }
  return [...new Set(roots)].sort();
}

function collectRefs(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, out);
  } else if (isObj(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.add(refKey(v));
      else collectRefs(v, out);
    }
  }
}

/** Every definition reachable from the adapter's roots. */
export function reachable(surface: ProtocolSurface): string[] {
  const seen = new Set<string>();
  const queue = adapterRoots(surface);
  while (queue.length > 0) {
    const key = queue.pop();
    if (key === undefined || seen.has(key) || !(key in surface.definitions)) continue;
    seen.add(key);
    const refs = new Set<string>();
    collectRefs(surface.definitions[key], refs);
    queue.push(...refs);
  }
  return [...seen].sort();
}
