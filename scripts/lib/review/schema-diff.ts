/**
 * The part of a release's generated JSON Schema the adapter reads or writes, and what changed in
 * it against the baseline. The surface is the params and responses of the methods the adapter
 * sends, the notifications it reads, the server requests it answers (all of them, by method),
 * and every definition reachable from those. Changes are reported per definition as methods
 * added/removed, fields added/removed/retyped, and union members added/removed; a union branch
 * that accepts any string or object is a "catch-all" member, so a closed enum that becomes
 * "new members + catch-all" reads as exactly that.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CODEX_BRIDGED_APPROVAL,
  CODEX_BRIDGED_FILE_CHANGE,
  CODEX_BRIDGED_QUESTION,
  CODEX_CLIENT_METHOD,
} from '../../../src/protocol/vocabulary.js';
import { INBOUND_METHODS } from '../../../src/protocol/inbound.js';

type Schema = Record<string, unknown>;

const { initialized, ...clientRequests } = CODEX_CLIENT_METHOD;

/**
 * What the adapter sends, reads and answers, taken from its protocol vocabulary so that a method
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

const isObj = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

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

const refKey = (ref: string): string => ref.replace(/^#\/definitions\//, '');

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

// --- shapes -------------------------------------------------------------------------------

const typesOf = (s: Schema): string[] =>
  Array.isArray(s.type)
    ? s.type.filter((t): t is string => typeof t === 'string')
    : typeof s.type === 'string'
      ? [s.type]
      : [];

const branchesOf = (s: Schema): Schema[] | undefined => {
  const list = s.oneOf ?? s.anyOf;
  return Array.isArray(list) ? list.filter(isObj) : undefined;
};

/** Members of a union/enum: string values, tags of single-key objects, `const`s, catch-alls. */
function unionMembers(s: Schema): string[] | undefined {
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v));
  const branches = branchesOf(s);
  if (branches === undefined) return undefined;
  const members: string[] = [];
  for (const b of branches) {
    if (Array.isArray(b.enum)) {
      members.push(...b.enum.map((v) => JSON.stringify(v)));
    } else if ('const' in b) {
      members.push(JSON.stringify(b.const));
    } else if (typeof b.$ref === 'string') {
      members.push(`ref ${refKey(b.$ref)}`);
    } else if (isObj(b.properties)) {
      const required = asArray(b.required).filter((r): r is string => typeof r === 'string');
      const tag = Object.entries(b.properties).find(
        ([, p]) => isObj(p) && (Array.isArray(p.enum) || 'const' in p),
      );
      if (tag !== undefined && isObj(tag[1])) {
        const value = Array.isArray(tag[1].enum) ? tag[1].enum[0] : tag[1].const;
        members.push(`${tag[0]}=${JSON.stringify(value)}`);
      } else if (required.length === 1 && Object.keys(b.properties).length === 1) {
        members.push(`{${required[0] ?? ''}}`);
      } else {
        members.push(`object(${Object.keys(b.properties).sort().join(',')})`);
      }
    } else if (typesOf(b).length > 0 && !('properties' in b)) {
      const t = typesOf(b);
      members.push(t.every((x) => x === 'null') ? 'null' : `catch-all(${[...t].sort().join('|')})`);
    } else {
      members.push('other');
    }
  }
  return members;
}

/** A compact type signature of a property (refs by name; inline unions as `union`). */
function signature(s: unknown): string {
  if (!isObj(s)) return '?';
  if (typeof s.$ref === 'string') return refKey(s.$ref);
  const branches = branchesOf(s);
  if (branches !== undefined) {
    const parts = branches.map((b) =>
      typeof b.$ref === 'string'
        ? refKey(b.$ref)
        : typesOf(b).join('|') || (Array.isArray(b.enum) ? 'enum' : 'object'),
    );
    return [...new Set(parts)].sort().join('|');
  }
  if (Array.isArray(s.enum)) return `enum`;
  const types = typesOf(s);
  const items = s.items;
  const parts = types.map((t) => (t === 'array' ? `array<${signature(items)}>` : t));
  return parts.join('|') || 'any';
}

interface Field {
  readonly sig: string;
  readonly required: boolean;
}

function fieldsOf(s: Schema): Record<string, Field> | undefined {
  if (!isObj(s.properties)) return undefined;
  const required = new Set(asArray(s.required));
  const out: Record<string, Field> = {};
  for (const [name, p] of Object.entries(s.properties)) {
    out[name] = { sig: signature(p), required: required.has(name) };
  }
  return out;
}

/** Inline sub-schemas worth diffing on their own: object or union properties. */
function inlineParts(s: Schema): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  if (isObj(s.properties)) {
    for (const [name, p] of Object.entries(s.properties)) {
      if (!isObj(p) || typeof p.$ref === 'string') continue;
      if (isObj(p.properties) || unionMembers(p) !== undefined) out[`.${name}`] = p;
    }
  }
  const branches = branchesOf(s);
  if (branches !== undefined) {
    for (const b of branches) {
      const tag = unionMembers({ oneOf: [b] })?.[0];
      if (tag !== undefined && isObj(b.properties)) out[`[${tag}]`] = b;
    }
  }
  return out;
}

// --- diff ---------------------------------------------------------------------------------

export interface TypeChange {
  /** Definition key, with `.field` / `[member]` for inline parts. */
  readonly type: string;
  readonly change: string;
}

export interface SchemaDiff {
  readonly methods: readonly string[];
  readonly types: readonly TypeChange[];
  /** Methods outside the adapter's surface, counted (informational). */
  readonly otherMethods: { readonly added: readonly string[]; readonly removed: readonly string[] };
}

const added = (a: readonly string[], b: readonly string[]): string[] =>
  b.filter((x) => !a.includes(x));

function diffSchema(path: string, a: Schema, b: Schema, out: TypeChange[], depth = 0): void {
  const ma = unionMembers(a);
  const mb = unionMembers(b);
  if (ma !== undefined || mb !== undefined) {
    const plus = added(ma ?? [], mb ?? []);
    const minus = added(mb ?? [], ma ?? []);
    if (plus.length > 0) {
      const catchAll = plus.filter((m) => m.startsWith('catch-all'));
      const members = plus.filter((m) => !m.startsWith('catch-all'));
      const text = [
        members.length > 0 ? `new members ${members.join(', ')}` : '',
        catchAll.length > 0 ? `a catch-all (${catchAll.join(', ')})` : '',
      ]
        .filter((t) => t !== '')
        .join(' + ');
      out.push({ type: path, change: text });
    }
    if (minus.length > 0) out.push({ type: path, change: `members removed ${minus.join(', ')}` });
  }
  const fa = fieldsOf(a);
  const fb = fieldsOf(b);
  if (fa !== undefined || fb !== undefined) {
    const A = fa ?? {};
    const B = fb ?? {};
    for (const name of Object.keys(B).sort()) {
      const before = A[name];
      const after = B[name];
      if (after === undefined) continue;
      if (before === undefined) {
        out.push({
          type: path,
          change: `field added ${name}: ${after.sig}${after.required ? ' (required)' : ''}`,
        });
      } else {
        if (before.sig !== after.sig)
          out.push({ type: path, change: `field retyped ${name}: ${before.sig} → ${after.sig}` });
        if (before.required !== after.required)
          out.push({
            type: path,
            change: `field ${name} became ${after.required ? 'required' : 'optional'}`,
          });
      }
    }
    for (const name of Object.keys(A).sort()) {
      if (!(name in B)) out.push({ type: path, change: `field removed ${name}` });
    }
  }
  if (ma === undefined && mb === undefined && fa === undefined && fb === undefined) {
    const sa = signature(a);
    const sb = signature(b);
    if (sa !== sb) out.push({ type: path, change: `retyped ${sa} → ${sb}` });
  }
  if (depth > 4) return;
  const ia = inlineParts(a);
  const ib = inlineParts(b);
  for (const key of Object.keys(ib).sort()) {
    const left = ia[key];
    const right = ib[key];
    if (left !== undefined && right !== undefined)
      diffSchema(`${path}${key}`, left, right, out, depth + 1);
  }
}

function methodChanges(
  label: string,
  base: Readonly<Record<string, string>>,
  next: Readonly<Record<string, string>>,
  used: readonly string[] | 'all',
  out: string[],
  other: { added: string[]; removed: string[] },
): void {
  const inScope = (m: string): boolean => used === 'all' || used.includes(m);
  for (const m of Object.keys(next).sort()) {
    if (m in base) {
      const pa = base[m] ?? '';
      const pb = next[m] ?? '';
      if (inScope(m) && pa !== pb) out.push(`${label} ${m}: params ${pa} → ${pb}`);
    } else if (inScope(m)) out.push(`${label} added: ${m}`);
    else other.added.push(`${label} ${m}`);
  }
  for (const m of Object.keys(base).sort()) {
    if (m in next) continue;
    if (inScope(m)) out.push(`${label} removed: ${m}`);
    else other.removed.push(`${label} ${m}`);
  }
}

/** What changed from `base` to `next` in what the adapter reads or writes. */
export function diffSurfaces(base: ProtocolSurface, next: ProtocolSurface): SchemaDiff {
  const methods: string[] = [];
  const other = { added: [] as string[], removed: [] as string[] };
  methodChanges(
    'client request',
    base.clientRequests,
    next.clientRequests,
    ADAPTER_SURFACE.clientRequests,
    methods,
    other,
  );
  methodChanges(
    'client notification',
    Object.fromEntries(base.clientNotifications.map((m) => [m, ''])),
    Object.fromEntries(next.clientNotifications.map((m) => [m, ''])),
    'all',
    methods,
    other,
  );
  methodChanges('server request', base.serverRequests, next.serverRequests, 'all', methods, other);
  methodChanges(
    'notification',
    base.notifications,
    next.notifications,
    ADAPTER_SURFACE.notifications,
    methods,
    other,
  );

  const types: TypeChange[] = [];
  const ra = reachable(base);
  const rb = reachable(next);
  for (const key of rb) {
    const a = base.definitions[key];
    const b = next.definitions[key];
    if (b === undefined) continue;
    if (a === undefined || !ra.includes(key)) {
      types.push({ type: key, change: 'type added' });
      continue;
    }
    diffSchema(key, a, b, types);
  }
  for (const key of ra) {
    if (!rb.includes(key)) types.push({ type: key, change: 'type removed' });
  }
  return { methods, types, otherMethods: other };
}
