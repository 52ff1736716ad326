/**
 * docs/console.md documents the console's whole API: every route of the table the server
 * dispatches through (and no other), with its query parameters, the fields of its body and
 * reply (from their zod schemas), its refusals and its stream events; every field of a session
 * row. A route, field or refusal added without its documentation fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROUTES } from '../../src/console/routes.js';
import { sessionRowSchema } from '../../src/console/schemas.js';

const DOC = readFileSync(new URL('../../../../docs/console.md', import.meta.url), 'utf8');

/** The text under each `### METHOD /path` heading, by heading. */
function sections(): Map<string, string> {
  const out = new Map<string, string>();
  const parts = DOC.split(/^### /m).slice(1);
  for (const part of parts) {
    const [heading = '', ...rest] = part.split('\n');
    out.set(heading.trim(), rest.join('\n').split(/^## /m)[0] ?? '');
  }
  return out;
}

/** An object schema's top-level keys; none for any other schema (a union is described in prose). */
function keysOf(schema: z.ZodType | undefined): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

describe('docs/console.md', () => {
  const documented = sections();

  it('has a section for every route the server answers, and none for a route it does not', () => {
    expect([...documented.keys()].sort()).toEqual([...ROUTES.keys()].sort());
  });

  it("names each route's query parameters, body and reply fields, refusals and events", () => {
    const missing: string[] = [];
    for (const [key, spec] of ROUTES) {
      const text = documented.get(key) ?? '';
      const names = [
        ...(spec.query ?? []),
        ...keysOf(spec.body),
        ...keysOf(spec.reply),
        ...spec.refusals,
        ...(spec.events ?? []),
      ];
      for (const name of names)
        if (!text.includes(`\`${name}\``) && !text.includes(`"${name}"`))
          missing.push(`${key}: ${name}`);
      if (!text.includes(String(spec.status)))
        missing.push(`${key}: status ${String(spec.status)}`);
    }
    expect(missing).toEqual([]);
  });

  it('describes every field of a session row', () => {
    const table = DOC.slice(DOC.indexOf('`SessionRow`'), DOC.indexOf('`PendingInteraction`:'));
    const missing = keysOf(sessionRowSchema).filter((k) => !table.includes(`\`${k}\``));
    expect(missing).toEqual([]);
  });
});
