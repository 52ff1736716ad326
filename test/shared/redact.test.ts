import { describe, expect, it } from 'vitest';
import { REDACTED, redact } from '../../src/shared/redact.js';

describe('redact (docs/behaviour.md §10.5)', () => {
  const secrets = [
    'sk-abcdefghijklmnop',
    'sk-proj-AbCdEf0123456789_xyz',
    'ghp_abcdefghijklmnop1234',
    'gho_ABCDEFGHIJKLMNOP',
    'ghu_abcdefghijklmnop',
    'ghs_abcdefghijklmnop',
    'ghr_abcdefghijklmnop',
    'AKIAABCDEFGHIJKLMNOP',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  ];

  it.each(secrets)('replaces %s', (secret) => {
    const out = redact(`before ${secret} after`);
    expect(out).toBe(`before ${REDACTED} after`);
    expect(out).not.toContain(secret);
  });

  it('redacts several secrets in one text, including at the edges and after punctuation', () => {
    const text = `${secrets[0]!} key="${secrets[2]!}",token:${secrets[8]!}`;
    expect(redact(text)).toBe(`${REDACTED} key="${REDACTED}",token:${REDACTED}`);
  });

  it.each([
    'sk-short123',
    'ghp_tooShort',
    'ghx_abcdefghijklmnopqrstu',
    'AKIAabcdefghijklmnop',
    'eyes.are.blue',
    'the task-abcdefghijklmnopqrst id',
    'plain text with no credentials',
  ])('leaves %s alone', (text) => {
    expect(redact(text)).toBe(text);
  });

  it('is idempotent', () => {
    const once = redact(secrets.join(' '));
    expect(redact(once)).toBe(once);
  });
});
