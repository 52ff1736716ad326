/**
 * The runtime's README ships the table of every refusal reason: it lists each reason of
 * `RUNTIME_ERROR_REASONS` exactly once, with the retry verdict the code gives it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRetryableReason, RUNTIME_ERROR_REASONS } from '../src/index.js';

const README = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');

function tableRows(): [string, string, string][] {
  const section = README.split('### Every reason')[1] ?? '';
  return [...section.matchAll(/^\| `([a-z_]+)` \| ([^|]+) \| ([^|]+) \|$/gm)].map((m) => [
    m[1] ?? '',
    (m[2] ?? '').trim(),
    (m[3] ?? '').trim(),
  ]);
}

describe("the runtime README's table of reasons", () => {
  it('lists every reason exactly once, in the order of the code', () => {
    expect(tableRows().map(([reason]) => reason)).toEqual([...RUNTIME_ERROR_REASONS]);
  });

  it("gives each the code's retry verdict, and a meaning", () => {
    for (const [reason, retryable, meaning] of tableRows()) {
      const expected =
        reason === 'provider_rejected'
          ? "the provider's verdict"
          : isRetryableReason(reason as (typeof RUNTIME_ERROR_REASONS)[number])
            ? 'yes'
            : 'no';
      expect({ reason, retryable }).toEqual({ reason, retryable: expected });
      expect(meaning.length).toBeGreaterThan(10);
    }
  });
});
