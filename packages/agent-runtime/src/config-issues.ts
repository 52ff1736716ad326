/**
 * Turns a failed zod parse of host config into bounded, actionable issues: every unknown key
 * named (with the closest known key), the allowed values of an enum, the expected type or bound.
 * The refused values themselves are never copied.
 */
import type { JsonObject } from '@relvo-labs/agent-provider';
import type { z } from 'zod';

const MAX_ISSUES = 16;
const MAX_TEXT = 64;

/** The public `def` of a zod 4 schema, read structurally so another zod copy works too. */
interface SchemaDef {
  readonly type?: string;
  readonly shape?: Readonly<Record<string, { readonly def?: SchemaDef }>>;
  readonly innerType?: { readonly def?: SchemaDef };
  readonly valueType?: { readonly def?: SchemaDef };
  readonly element?: { readonly def?: SchemaDef };
  readonly in?: { readonly def?: SchemaDef };
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch']);

function unwrap(def: SchemaDef | undefined): SchemaDef | undefined {
  let current = def;
  for (let depth = 0; current !== undefined && depth < 16; depth += 1) {
    if (current.type !== undefined && WRAPPERS.has(current.type)) current = current.innerType?.def;
    else if (current.type === 'pipe') current = current.in?.def;
    else return current;
  }
  return current;
}

/** The keys an object schema knows at `path` (empty when the path leads elsewhere). */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let def = unwrap((schema as { readonly def?: SchemaDef }).def);
  for (const segment of path) {
    if (def?.type === 'object') def = unwrap(def.shape?.[String(segment)]?.def);
    else if (def?.type === 'record') def = unwrap(def.valueType?.def);
    else if (def?.type === 'array') def = unwrap(def.element?.def);
    else return [];
  }
  return def?.type === 'object' && def.shape !== undefined ? Object.keys(def.shape) : [];
}

/** Edit distance, bounded: keys are short, and only a near miss is worth suggesting. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, substitution));
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/** The known key a typo most likely meant: the nearest by edit distance, if near enough. */
export function closestKey(unknown: string, known: readonly string[]): string | undefined {
  const lower = unknown.toLowerCase();
  const limit = Math.max(2, Math.floor(unknown.length / 3));
  let best: { key: string; score: number } | undefined;
  for (const key of known) {
    const candidate = key.toLowerCase();
    const score = distance(lower, candidate);
    // a key cut short or run on (`sandbox` for `sandboxMode`) counts as near, whatever its length
    const prefix =
      Math.min(lower.length, candidate.length) >= 3 &&
      (candidate.startsWith(lower) || lower.startsWith(candidate));
    if ((score <= limit || prefix) && (best === undefined || score < best.score)) {
      best = { key, score };
    }
  }
  return best?.key;
}

export interface ConfigIssue {
  /** Dotted key path from the root of what was parsed, `(root)` for the root itself. */
  readonly path: string;
  readonly problem: string;
  readonly details: JsonObject;
}

function clamp(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

export function dotted(prefix: string, path: readonly PropertyKey[]): string {
  const parts = [prefix, ...path.map((p) => clamp(String(p)))].filter((p) => p !== '');
  return parts.length === 0 ? '(root)' : parts.join('.');
}

function scalar(value: unknown): string | number | boolean | null {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? value
    : null;
}

function describe(issue: z.core.$ZodIssue, schema: z.ZodType, prefix: string): ConfigIssue[] {
  const path = dotted(prefix, issue.path);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const known = knownKeysAt(schema, issue.path);
      return issue.keys.map((raw) => {
        const key = clamp(raw);
        const suggestion = closestKey(raw, known);
        return {
          path: dotted(prefix, [...issue.path, raw]),
          problem: `unknown key "${key}"${suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`}`,
          details: {
            code: 'unknown_key',
            key,
            ...(suggestion === undefined ? {} : { suggestion }),
          },
        };
      });
    }
    case 'invalid_value': {
      const allowed = issue.values.map(scalar);
      return [
        {
          path,
          problem: `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`,
          details: { code: 'not_allowed', allowed },
        },
      ];
    }
    case 'invalid_type':
      return [
        {
          path,
          problem: `must be ${issue.expected === 'undefined' ? 'absent' : `a valid ${issue.expected}`}`,
          details: { code: 'wrong_type', expected: issue.expected },
        },
      ];
    case 'too_small':
    case 'too_big': {
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const inclusive = issue.inclusive !== false;
      const word =
        issue.code === 'too_small'
          ? inclusive
            ? 'at least'
            : 'greater than'
          : inclusive
            ? 'at most'
            : 'less than';
      const limit = typeof bound === 'bigint' ? Number(bound) : bound;
      return [
        {
          path,
          problem: `${issue.origin === 'number' ? 'must be' : 'size must be'} ${word} ${limit}`,
          details: { code: issue.code, origin: issue.origin, limit, inclusive },
        },
      ];
    }
    case 'not_multiple_of':
      return [{ path, problem: 'must be a whole number', details: { code: 'not_integer' } }];
    case 'custom':
      // only the runtime's own refinements raise these; their messages are fixed text
      return [{ path, problem: clamp(issue.message), details: { code: 'custom' } }];
    default:
      return [{ path, problem: 'has an invalid value', details: { code: issue.code } }];
  }
}

/** Every issue of a failed parse, bounded; `prefix` is where `schema` sits in the config. */
export function describeIssues(
  error: z.ZodError,
  schema: z.ZodType,
  prefix = '',
): readonly ConfigIssue[] {
  return error.issues.flatMap((issue) => describe(issue, schema, prefix)).slice(0, MAX_ISSUES);
}

/** One line listing the issues, for an error message. */
export function summarise(issues: readonly ConfigIssue[]): string {
  return issues.map((i) => `${i.path}: ${i.problem}`).join('; ');
}
