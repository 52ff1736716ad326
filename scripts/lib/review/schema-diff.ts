/**
 * The part of a release's generated JSON Schema the adapter reads or writes, and what changed in
 * it against the baseline. The surface is the params and responses of the methods the adapter
 * sends, the notifications it reads, the server requests it answers (all of them, by method),
 * and every definition reachable from those. Changes are reported per definition as methods
 * added/removed, fields added/removed/retyped, and union members added/removed; a union branch
 * that accepts any string or object is a "catch-all" member, so a closed enum that becomes
 * "new members + catch-all" reads as exactly that. What the surface is: `protocol-surface.ts`.
 */
import {
  ADAPTER_SURFACE,
  asArray,
  isObj,
  reachable,
  refKey,
  type ProtocolSurface,
  type Schema,
} from './protocol-surface.js';

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
