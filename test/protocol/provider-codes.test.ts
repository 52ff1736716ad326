/**
 * The published codes and docs/errors.md say the same: every `providerCode` the adapter may
 * publish has a row telling a host what to do, and the page names no code the adapter never
 * publishes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isProviderCode,
  PROVIDER_CODES,
  UPSTREAM_PROVIDER_CODES,
  WIRE_CLASSIFICATIONS,
} from '../../src/protocol/provider-codes.js';
import { REPO_ROOT } from '../support/paths.js';

/** The adapter's sections of docs/errors.md: from "A failed run" up to the requests from codex. */
function adapterSections(page: string): string {
  const start = page.indexOf('\n## A failed run');
  const end = page.indexOf('\n## Requests from codex');
  if (start < 0 || end < start) throw new Error('docs/errors.md: adapter sections not found');
  return page.slice(start, end);
}

/**
 * The codes the first column of each table names. Under a `providerCode` header every code in
 * the cell is one; under "`code` / `providerCode`" only what follows the slash is.
 */
function documentedCodes(sections: string): string[] {
  const codes: string[] = [];
  let afterSlashOnly = false;
  const lines = sections.split('\n');
  lines.forEach((line, index) => {
    if (!line.startsWith('| ')) return;
    const first = line.slice(2, line.indexOf(' |', 2));
    const next = lines[index + 1] ?? '';
    if (next.startsWith('|---')) {
      // a header row decides how the rows below it are read
      afterSlashOnly = first === '`code` / `providerCode`';
      if (!afterSlashOnly && first !== '`providerCode`') {
        throw new Error(`docs/errors.md: unexpected table header ${first}`);
      }
      return;
    }
    if (line.startsWith('|---')) return;
    const cell = afterSlashOnly ? first.split(' / ').slice(1).join(' / ') : first;
    codes.push(...[...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
  });
  return codes;
}

const page = readFileSync(join(REPO_ROOT, 'docs', 'errors.md'), 'utf8');

describe('published codes', () => {
  it('docs/errors.md has a row for every providerCode and names no other', () => {
    const documented = documentedCodes(adapterSections(page));
    expect(documented.length).toBeGreaterThan(40);
    expect(documented.filter((code) => !isProviderCode(code))).toEqual([]);
    expect(PROVIDER_CODES.filter((code) => !documented.includes(code))).toEqual([]);
  });

  it('a code missing from the page, or one the adapter never publishes, would be caught', () => {
    const sample = [
      '| `providerCode` | `code` | meaning |',
      '|---|---|---|',
      '| `overloaded`, `internal_error` | `provider_unavailable` | retry |',
      '',
      '| `code` / `providerCode` | when |',
      '|---|---|',
      '| `invalid_request` / `invalid_input` | bad input |',
      '| `session_closed` | no provider code |',
    ].join('\n');
    expect(documentedCodes(sample)).toEqual(['overloaded', 'internal_error', 'invalid_input']);
    expect(isProviderCode('session_closed')).toBe(false);
    expect(() => documentedCodes('| `reason` | x |\n|---|---|')).toThrow(/unexpected table/);
  });

  it('lists each code once and keeps every group in the set', () => {
    expect(new Set(PROVIDER_CODES).size).toBe(PROVIDER_CODES.length);
    for (const code of [...WIRE_CLASSIFICATIONS, ...UPSTREAM_PROVIDER_CODES]) {
      expect(isProviderCode(code)).toBe(true);
    }
    expect(isProviderCode('contextWindowExceeded')).toBe(false);
    expect(isProviderCode(undefined)).toBe(false);
  });
});
